import StoreViews
import Testing

@Suite("Stylesheet") struct StylesheetTests {
    @Test("reaches for nothing outside the store")
    func selfContained() {
        let css = StoreStylesheet.css
        #expect(!css.contains("url("))
        #expect(!css.contains("@import"))
        #expect(!css.contains("http"))
        #expect(!css.isEmpty)
    }

    @Test("keeps focus visible and touch targets at 44 px")
    func accessibility() {
        #expect(StoreStylesheet.css.contains(":focus-visible"))
        #expect(StoreStylesheet.css.contains("min-height: 44px"))
        #expect(!StoreStylesheet.css.contains("outline: none;\n  }\n  :focus"))
    }
}

@Suite("Stylesheet snapshot") struct StylesheetSnapshotTests {
    /// `__Snapshots__/store.css` is the stylesheet exactly as the server sends it at
    /// `/static/store.css`: the browser checks of the snapshot pages (Tests/Browser) serve it beside
    /// them, so they see the real stylesheet.
    @Test("__Snapshots__/store.css is StoreStylesheet.css")
    func snapshot() throws {
        try expectSnapshot(text: StoreStylesheet.css, file: "store.css")
    }
}
