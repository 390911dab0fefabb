import HTML

/// The few elements the back office uses that the HTML builder does not name.
extension Node {
    /// A multi-line text field. A value that starts with a line break gets one more, because HTML
    /// drops the first line break after `<textarea>`.
    static func textarea(_ attributes: [Attribute], _ value: String) -> Node {
        .element("textarea", layout: .block, attributes, [.text(value.hasPrefix("\n") ? "\n" + value : value)])
    }

    /// The suggestions of a text field that names it in `list`.
    static func datalist(_ attributes: [Attribute], _ children: [Node]) -> Node {
        .element("datalist", layout: .block, attributes, children)
    }

    /// Text as the machine wrote it: codes, JSON, ids.
    static func code(_ attributes: [Attribute], _ text: String) -> Node {
        .element("code", attributes, [.text(text)])
    }

    /// A header cell holding more than text, such as a link.
    static func th(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("th", layout: .block, attributes, children)
    }

    /// A caption holding more than text.
    static func caption(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("caption", layout: .block, attributes, children)
    }

    static func em(_ text: String) -> Node {
        .element("em", [], [.text(text)])
    }
}

extension Attribute {
    /// `tabindex="0"`: a region that scrolls can be reached and scrolled with the keyboard.
    static let focusable = Attribute("tabindex", "0")

    static func list(_ id: String) -> Attribute { Attribute("list", id) }
    static func accept(_ types: String) -> Attribute { Attribute("accept", types) }
    static func enctype(_ value: String) -> Attribute { Attribute("enctype", value) }
    static func rows(_ count: Int) -> Attribute { Attribute("rows", String(count)) }
    static func minlength(_ value: Int) -> Attribute { Attribute("minlength", String(value)) }
}
