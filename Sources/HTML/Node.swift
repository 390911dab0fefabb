/// A piece of an HTML document: an element, some text, or a fragment of several nodes.
///
/// Nodes are plain values built with the static functions in `Node+Elements.swift`
/// (`.div([.class("card")], .h2("Title"), .p("Text"))`) and rendered to bytes by ``HTMLDocument``
/// or ``render()``. Nothing a node holds can become markup by accident:
///
/// - text and attribute values are always escaped when rendered (`&`, `<`, `>`, `"`, `'`);
/// - element and attribute names are `StaticString`s, so only literals written in source code can
///   name a tag or an attribute.
///
/// There is deliberately no way to insert raw HTML.
public struct Node: Sendable {
    /// What a node is.
    enum Content: Sendable {
        case element(Element)
        case text(String)
        case fragment([Node])
    }

    let content: Content
    /// Whether rendering this node starts a line of its own: a block element, or a fragment
    /// holding one. Worked out once, when the node is built.
    let isBlock: Bool

    private init(content: Content, isBlock: Bool) {
        self.content = content
        self.isBlock = isBlock
    }

    /// How an element is placed in the rendered text: on a line of its own, or within a line.
    ///
    /// This only changes the whitespace between tags, never the text: a `.block` element starts
    /// on a new, indented line, and its closing tag gets a line of its own when it holds other
    /// `.block` elements; `.inline` elements and text are never broken up. Use `.block` for
    /// elements whose surrounding whitespace does not show: block-level elements, and controls and
    /// images that the stylesheet spaces itself.
    public enum Layout: Sendable {
        case inline
        case block
    }

    /// Text, escaped when rendered: `.text("Fish & <chips>")` renders `Fish &amp; &lt;chips&gt;`.
    public static func text(_ text: String) -> Node {
        Node(content: .text(text), isBlock: false)
    }

    /// Several nodes rendered one after the other, e.g. the cards of a list.
    public static func fragment(_ nodes: [Node]) -> Node {
        Node(content: .fragment(nodes), isBlock: nodes.contains { $0.isBlock })
    }

    /// Several nodes rendered one after the other.
    public static func fragment(_ nodes: Node...) -> Node {
        fragment(nodes)
    }

    /// Nothing at all; handy as the other branch of a condition.
    public static let empty = Node(content: .fragment([]), isBlock: false)

    /// An element with a closing tag: `<name attributes>children</name>`.
    public static func element(
        _ name: StaticString, layout: Layout = .inline, _ attributes: [Attribute] = [], _ children: [Node] = []
    ) -> Node {
        let element = Element(name: name, attributes: attributes, children: children, isVoid: false)
        return Node(content: .element(element), isBlock: layout == .block)
    }

    /// A void element, which has no children and no closing tag: `<name attributes>`.
    public static func voidElement(
        _ name: StaticString, layout: Layout = .inline, _ attributes: [Attribute] = []
    ) -> Node {
        let element = Element(name: name, attributes: attributes, children: [], isVoid: true)
        return Node(content: .element(element), isBlock: layout == .block)
    }
}

/// An element's parts, as the renderer reads them.
struct Element: Sendable {
    let name: StaticString
    let attributes: [Attribute]
    let children: [Node]
    let isVoid: Bool
}
