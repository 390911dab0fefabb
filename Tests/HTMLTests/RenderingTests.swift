import HTML
import Testing

@Suite("Rendering") struct RenderingTests {
    @Test("void elements have no closing tag and no children")
    func voidElements() {
        #expect(
            Node.input([.type("hidden"), .name("csrf"), .value("t")]).renderString()
                == #"<input type="hidden" name="csrf" value="t">"#)
        #expect(Node.img([.src("/a.svg"), .alt("A")]).renderString() == #"<img src="/a.svg" alt="A">"#)
        #expect(Node.meta([.charset("utf-8")]).renderString() == #"<meta charset="utf-8">"#)
    }

    @Test("boolean attributes are bare names when on and absent when off")
    func booleanAttributes() {
        #expect(
            Node.input([.type("radio"), .checked(true), .required()]).renderString()
                == #"<input type="radio" checked required>"#)
        #expect(Node.input([.type("radio"), .checked(false)]).renderString() == #"<input type="radio">"#)
    }

    @Test("inline elements stay on one line")
    func inlineElements() {
        let node = Node.label([.for("q")], .text("Search "), .span([.class("hint")], "by title"))
        #expect(node.renderString() == #"<label for="q">Search <span class="hint">by title</span></label>"#)
    }

    @Test("block elements start indented lines; their closing tag is on its own line only around blocks")
    func blockElements() {
        let node = Node.div(
            [.class("card")],
            .h2("Cap"),
            .p([], .text("Only "), .strong("3"), .text(" left")),
            .ul([], .li("a"), .li("b")))
        #expect(
            node.renderString() == """
                <div class="card">
                  <h2>Cap</h2>
                  <p>Only <strong>3</strong> left</p>
                  <ul>
                    <li>a</li>
                    <li>b</li>
                  </ul>
                </div>
                """)
    }

    @Test("fragments and empty nodes add nothing of their own")
    func fragments() {
        let items = ["x", "y"].map { Node.li($0) }
        #expect(Node.ul([], .fragment(items), .empty).renderString() == "<ul>\n  <li>x</li>\n  <li>y</li>\n</ul>")
        #expect(Node.empty.renderString() == "")
        #expect(Node.fragment(.text("a"), .text("b")).renderString() == "ab")
    }

    @Test("a document starts with the doctype and ends with a newline")
    func document() {
        let document = HTMLDocument(
            .html([.lang("en")], .head(.meta([.charset("utf-8")]), .title("T & C")), .body([], .p("Hi"))))
        #expect(
            document.renderString() == """
                <!doctype html>
                <html lang="en">
                  <head>
                    <meta charset="utf-8">
                    <title>T &amp; C</title>
                  </head>
                  <body>
                    <p>Hi</p>
                  </body>
                </html>

                """)
        #expect(document.render() == Array(document.renderString().utf8))
    }

    @Test("any element can be built by name")
    func customElements() {
        let node = Node.element("search", layout: .block, [.role("search")], [.text("…")])
        #expect(node.renderString() == #"<search role="search">…</search>"#)
        #expect(Node.voidElement("br").renderString() == "<br>")
    }
}
