/// The elements the store's pages use, named as in HTML.
///
/// Each container comes in two shapes, with and without a leading list of attributes:
/// `.div(.p("Hello"))` and `.div([.class("card")], .p("Hello"))`. Elements that usually hold
/// only text also take a `String`, escaped when rendered: `.h1("Basket")`,
/// `.button([.type("submit")], "Update")`. A list of children built elsewhere goes in as
/// `.fragment(nodes)`.
///
/// Block-level elements, and the form controls and images whose spacing the stylesheet sets,
/// start lines of their own in the rendered text (see ``Node/Layout``); phrasing elements such as
/// `a`, `span` and `strong` stay within the line of text they belong to.
extension Node {
    // MARK: Document

    public static func html(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("html", layout: .block, attributes, children)
    }
    public static func head(_ children: Node...) -> Node { .element("head", layout: .block, [], children) }
    public static func body(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("body", layout: .block, attributes, children)
    }
    public static func title(_ text: String) -> Node { .element("title", layout: .block, [], [.text(text)]) }
    public static func meta(_ attributes: [Attribute]) -> Node { .voidElement("meta", layout: .block, attributes) }
    public static func link(_ attributes: [Attribute]) -> Node { .voidElement("link", layout: .block, attributes) }

    // MARK: Sections

    public static func header(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("header", layout: .block, attributes, children)
    }
    public static func nav(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("nav", layout: .block, attributes, children)
    }
    public static func main(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("main", layout: .block, attributes, children)
    }
    public static func footer(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("footer", layout: .block, attributes, children)
    }
    public static func section(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("section", layout: .block, attributes, children)
    }
    public static func article(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("article", layout: .block, attributes, children)
    }
    public static func div(_ children: Node...) -> Node { .element("div", layout: .block, [], children) }
    public static func div(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("div", layout: .block, attributes, children)
    }

    // MARK: Headings and text

    public static func h1(_ text: String) -> Node { .element("h1", layout: .block, [], [.text(text)]) }
    public static func h1(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("h1", layout: .block, attributes, children)
    }
    public static func h2(_ text: String) -> Node { .element("h2", layout: .block, [], [.text(text)]) }
    public static func h2(_ attributes: [Attribute], _ text: String) -> Node {
        .element("h2", layout: .block, attributes, [.text(text)])
    }
    public static func h2(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("h2", layout: .block, attributes, children)
    }
    public static func h3(_ text: String) -> Node { .element("h3", layout: .block, [], [.text(text)]) }
    public static func h3(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("h3", layout: .block, attributes, children)
    }
    public static func p(_ text: String) -> Node { .element("p", layout: .block, [], [.text(text)]) }
    public static func p(_ attributes: [Attribute], _ text: String) -> Node {
        .element("p", layout: .block, attributes, [.text(text)])
    }
    public static func p(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("p", layout: .block, attributes, children)
    }
    public static func span(_ attributes: [Attribute], _ text: String) -> Node {
        .element("span", attributes, [.text(text)])
    }
    public static func span(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("span", attributes, children)
    }
    public static func strong(_ text: String) -> Node { .element("strong", [], [.text(text)]) }
    public static func small(_ attributes: [Attribute], _ text: String) -> Node {
        .element("small", attributes, [.text(text)])
    }
    public static func time(_ attributes: [Attribute], _ text: String) -> Node {
        .element("time", attributes, [.text(text)])
    }

    // MARK: Links and images

    public static func a(_ attributes: [Attribute], _ text: String) -> Node {
        .element("a", attributes, [.text(text)])
    }
    public static func a(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("a", attributes, children)
    }
    public static func img(_ attributes: [Attribute]) -> Node { .voidElement("img", layout: .block, attributes) }

    // MARK: Lists

    public static func ul(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("ul", layout: .block, attributes, children)
    }
    public static func ol(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("ol", layout: .block, attributes, children)
    }
    public static func li(_ text: String) -> Node { .element("li", layout: .block, [], [.text(text)]) }
    public static func li(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("li", layout: .block, attributes, children)
    }
    public static func dl(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("dl", layout: .block, attributes, children)
    }
    public static func dt(_ text: String) -> Node { .element("dt", layout: .block, [], [.text(text)]) }
    public static func dd(_ text: String) -> Node { .element("dd", layout: .block, [], [.text(text)]) }
    public static func dd(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("dd", layout: .block, attributes, children)
    }

    // MARK: Tables

    public static func table(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("table", layout: .block, attributes, children)
    }
    public static func caption(_ attributes: [Attribute], _ text: String) -> Node {
        .element("caption", layout: .block, attributes, [.text(text)])
    }
    public static func thead(_ children: Node...) -> Node { .element("thead", layout: .block, [], children) }
    public static func tbody(_ children: Node...) -> Node { .element("tbody", layout: .block, [], children) }
    public static func tfoot(_ children: Node...) -> Node { .element("tfoot", layout: .block, [], children) }
    public static func tr(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("tr", layout: .block, attributes, children)
    }
    public static func th(_ attributes: [Attribute], _ text: String) -> Node {
        .element("th", layout: .block, attributes, [.text(text)])
    }
    public static func td(_ attributes: [Attribute], _ text: String) -> Node {
        .element("td", layout: .block, attributes, [.text(text)])
    }
    public static func td(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("td", layout: .block, attributes, children)
    }

    // MARK: Forms

    public static func form(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("form", layout: .block, attributes, children)
    }
    public static func fieldset(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("fieldset", layout: .block, attributes, children)
    }
    public static func legend(_ attributes: [Attribute], _ text: String) -> Node {
        .element("legend", layout: .block, attributes, [.text(text)])
    }
    public static func label(_ attributes: [Attribute], _ text: String) -> Node {
        .element("label", layout: .block, attributes, [.text(text)])
    }
    public static func label(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("label", layout: .block, attributes, children)
    }
    public static func input(_ attributes: [Attribute]) -> Node { .voidElement("input", layout: .block, attributes) }
    public static func button(_ attributes: [Attribute], _ text: String) -> Node {
        .element("button", layout: .block, attributes, [.text(text)])
    }
    public static func select(_ attributes: [Attribute], _ children: Node...) -> Node {
        .element("select", layout: .block, attributes, children)
    }
    public static func option(_ attributes: [Attribute], _ text: String) -> Node {
        .element("option", layout: .block, attributes, [.text(text)])
    }
}
