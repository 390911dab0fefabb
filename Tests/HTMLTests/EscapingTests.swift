import HTML
import Testing

@Suite("Escaping") struct EscapingTests {
    @Test("text escapes the five special characters")
    func textIsEscaped() {
        let node = Node.p(#"Fish & <chips> "cod" 'n' more"#)
        #expect(node.renderString() == "<p>Fish &amp; &lt;chips&gt; &quot;cod&quot; &#39;n&#39; more</p>")
    }

    @Test("a script tag in text comes out as text")
    func scriptInTextIsInert() {
        let node = Node.span([], "<script>alert(1)</script>")
        #expect(node.renderString() == "<span>&lt;script&gt;alert(1)&lt;/script&gt;</span>")
    }

    @Test("attribute values cannot break out of their quotes")
    func attributeValuesAreEscaped() {
        let node = Node.input([.value("x\" onfocus=\"alert(1)\""), .name("q'><b>")])
        #expect(
            node.renderString()
                == #"<input value="x&quot; onfocus=&quot;alert(1)&quot;" name="q&#39;&gt;&lt;b&gt;">"#)
    }

    @Test("ampersands already written as references are escaped again, never trusted")
    func referencesAreNotTrusted() {
        #expect(Node.text("&amp; &#60;").renderString() == "&amp;amp; &amp;#60;")
    }

    @Test("text without special characters is copied as it is, including non-ASCII")
    func plainTextIsCopied() {
        #expect(Node.text("Größe − €50.00 ✓").renderString() == "Größe − €50.00 ✓")
        #expect(Node.text("").renderString() == "")
        #expect(Node.text("<").renderString() == "&lt;")
    }
}
