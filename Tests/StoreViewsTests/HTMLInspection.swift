/// Just enough reading of the pages' HTML for the tests: the start tags with their attributes.
///
/// This relies on what the HTML builder guarantees: attribute values are always quoted and never
/// hold `"`, `<` or `>`, so a start tag runs from `<` to the next `>`.
struct StartTag {
    let name: String
    let attributes: [String: String]
    /// Where the tag ends in the page, to look at what follows it.
    let end: String.Index

    subscript(_ attribute: String) -> String? { attributes[attribute] }

    static func all(in html: String) -> [StartTag] {
        var tags: [StartTag] = []
        var index = html.startIndex
        while let open = html[index...].firstIndex(of: "<") {
            guard let close = html[open...].firstIndex(of: ">") else { break }
            let inside = html[html.index(after: open)..<close]
            index = html.index(after: close)
            guard let first = inside.first, first.isLetter else { continue }
            tags.append(StartTag(parsing: inside, end: index))
        }
        return tags
    }

    private init(parsing text: Substring, end: String.Index) {
        var rest = text[...]
        let nameEnd = rest.firstIndex(of: " ") ?? rest.endIndex
        name = String(rest[..<nameEnd])
        rest = rest[nameEnd...]
        var attributes: [String: String] = [:]
        while let start = rest.firstIndex(where: { $0 != " " }) {
            rest = rest[start...]
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == " " } ?? rest.endIndex
            let attribute = String(rest[..<nameEnd])
            rest = rest[nameEnd...]
            if rest.first == "=" {
                let valueStart = rest.index(rest.startIndex, offsetBy: 2)
                let valueEnd = rest[valueStart...].firstIndex(of: "\"") ?? rest.endIndex
                attributes[attribute] = String(rest[valueStart..<valueEnd])
                rest = valueEnd < rest.endIndex ? rest[rest.index(after: valueEnd)...] : rest[valueEnd...]
            } else {
                attributes[attribute] = ""
            }
        }
        self.attributes = attributes
        self.end = end
    }
}

extension String {
    /// The HTML without the line breaks and indentation the renderer puts between block tags.
    var withoutLineBreaks: String {
        split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
    }

    /// The text between `<tag …>` and `</tag>` for every `tag` element, with its tags removed.
    func texts(of tag: String) -> [String] {
        var texts: [String] = []
        var rest = self[...]
        while let open = rest.range(of: "<\(tag)"), let start = rest[open.upperBound...].firstIndex(of: ">"),
            let close = rest[start...].range(of: "</\(tag)>")
        {
            let inner = rest[rest.index(after: start)..<close.lowerBound]
            texts.append(String(inner).strippingTags)
            rest = rest[close.upperBound...]
        }
        return texts
    }

    /// The text with every tag removed and the whitespace collapsed.
    var strippingTags: String {
        var text = ""
        var inTag = false
        for character in self {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
