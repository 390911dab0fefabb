import Testing

/// Every page as text, compared with `__Snapshots__` (see `expectSnapshot`).
@Suite("Page snapshots") struct PageSnapshotTests {
    @Test("every page, for an anonymous shopper and a logged-in customer", arguments: Shopper.allCases)
    func everyPage(shopper: Shopper) throws {
        for page in try PageGallery.pages(for: shopper) {
            try expectSnapshot(page.document, named: "\(page.name)-\(shopper.rawValue)")
        }
    }

    @Test("problems, hints, notices and empty results")
    func variants() throws {
        for page in try PageGallery.variants() {
            try expectSnapshot(page.document, named: page.name)
        }
    }
}
