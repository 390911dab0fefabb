/// Writes nodes as UTF-8 bytes, escaping every piece of text and every attribute value.
///
/// Block elements start on a new line indented by two spaces per level, so rendered pages read
/// well in snapshots and in a browser's source view; the whitespace only ever falls between
/// tags where HTML ignores it.
struct HTMLRenderer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ node: Node, depth: Int = 0) {
        switch node.content {
        case .text(let text):
            appendEscaped(text)
        case .fragment(let nodes):
            for child in nodes { write(child, depth: depth) }
        case .element(let element):
            if node.isBlock { startLine(depth: depth) }
            bytes.append(UInt8(ascii: "<"))
            append(element.name)
            for attribute in element.attributes { write(attribute) }
            bytes.append(UInt8(ascii: ">"))
            guard !element.isVoid else { return }
            var holdsBlocks = false
            for child in element.children {
                write(child, depth: depth + 1)
                holdsBlocks = holdsBlocks || child.isBlock
            }
            if holdsBlocks { startLine(depth: depth) }
            bytes.append(UInt8(ascii: "<"))
            bytes.append(UInt8(ascii: "/"))
            append(element.name)
            bytes.append(UInt8(ascii: ">"))
        }
    }

    /// Writes `literal` as it is; only for markup the library itself spells, such as the doctype.
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func write(_ attribute: Attribute) {
        switch attribute.value {
        case .absent:
            return
        case .present:
            bytes.append(UInt8(ascii: " "))
            append(attribute.name)
        case .text(let value):
            bytes.append(UInt8(ascii: " "))
            append(attribute.name)
            bytes.append(UInt8(ascii: "="))
            bytes.append(UInt8(ascii: "\""))
            appendEscaped(value)
            bytes.append(UInt8(ascii: "\""))
        }
    }

    private mutating func startLine(depth: Int) {
        guard !bytes.isEmpty else { return }
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<depth {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
        }
    }

    /// Appends `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, copying
    /// the runs between them whole.
    private mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = utf8.startIndex
            for index in utf8.indices {
                let reference: StaticString
                switch utf8[index] {
                case UInt8(ascii: "&"): reference = "&amp;"
                case UInt8(ascii: "<"): reference = "&lt;"
                case UInt8(ascii: ">"): reference = "&gt;"
                case UInt8(ascii: "\""): reference = "&quot;"
                case UInt8(ascii: "'"): reference = "&#39;"
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                append(reference)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.endIndex]))
        }
    }
}

extension Node {
    /// The node as UTF-8 bytes of HTML.
    public func render() -> [UInt8] {
        var renderer = HTMLRenderer(capacity: 1024)
        renderer.write(self)
        return renderer.bytes
    }

    /// The node as a string of HTML, for tests and logs.
    public func renderString() -> String {
        String(decoding: render(), as: UTF8.self)
    }
}
