import Foundation
import StoreViews
import Testing

/// The rules every page keeps (docs/BEHAVIOUR.md §9 and the storefront's CSP), checked on every page in every
/// state of the gallery.
@Suite("Rules every page keeps") struct PageRulesTests {
    static func allPages() throws -> [PageGallery.Entry] {
        try PageGallery.pages(for: .anonymous) + PageGallery.pages(for: .customer) + PageGallery.variants()
    }

    @Test("doctype, lang, a title, one stylesheet, and no script or inline style")
    func documentShell() throws {
        for page in try Self.allPages() {
            let html = page.document.renderString()
            #expect(html.hasPrefix("<!doctype html>\n<html lang=\"en\">"), "\(page.name)")
            let titles = html.texts(of: "title")
            #expect(titles.count == 1 && titles[0].hasSuffix(" — OnlineStore"), "\(page.name)")
            let tags = StartTag.all(in: html)
            #expect(
                tags.filter { $0.name == "link" }.map(\.attributes) == [
                    ["rel": "stylesheet", "href": "/static/store.css"]
                ])
            #expect(
                !tags.contains { ["script", "style", "iframe", "object", "embed"].contains($0.name) }, "\(page.name)")
            #expect(!tags.contains { $0["style"] != nil }, "\(page.name)")
            #expect(!tags.contains { $0.attributes.keys.contains { $0.hasPrefix("on") } }, "\(page.name)")
            #expect(!tags.contains { ($0["href"] ?? $0["src"] ?? "/").hasPrefix("http") }, "\(page.name)")
        }
    }

    @Test("a header with the store's name, who is logged in and the basket count; one main; a polite status region")
    func frame() throws {
        for shopper in Shopper.allCases {
            for page in try PageGallery.pages(for: shopper) {
                let html = page.document.renderString()
                let header = html.texts(of: "header").first ?? ""
                #expect(header.contains("OnlineStore"), "\(page.name)")
                #expect(header.contains(#/Basket \d+ items?/#), "\(page.name)")
                #expect(header.contains("Signed in as Ada Lovelace") == (shopper == .customer), "\(page.name)")
                #expect(header.contains("Log out") == (shopper == .customer), "\(page.name)")
                #expect(header.contains("Log in") == (shopper == .anonymous), "\(page.name)")
                let tags = StartTag.all(in: html)
                #expect(tags.filter { $0.name == "main" }.count == 1, "\(page.name)")
                #expect(tags.filter { $0["aria-live"] == "polite" }.count == 1, "\(page.name)")
            }
        }
    }

    @Test("one h1, and headings never skip a level")
    func headings() throws {
        for page in try Self.allPages() {
            let levels = StartTag.all(in: page.document.renderString()).compactMap { tag -> Int? in
                guard tag.name.count == 2, tag.name.first == "h", let level = Int(tag.name.dropFirst()) else {
                    return nil
                }
                return level
            }
            #expect(levels.first == 1 && levels.filter { $0 == 1 }.count == 1, "\(page.name): \(levels)")
            for (previous, next) in zip(levels, levels.dropFirst()) {
                #expect(next <= previous + 1, "\(page.name): \(levels)")
            }
        }
    }

    @Test("every POST form starts with the session's CSRF token; every form has a method")
    func forms() throws {
        for page in try Self.allPages() {
            let html = page.document.renderString()
            for form in StartTag.all(in: html) where form.name == "form" {
                #expect(form["method"] == "post" || form["method"] == "get", "\(page.name)")
                #expect(form["action"]?.hasPrefix("/") == true, "\(page.name)")
                guard form["method"] == "post" else { continue }
                let next = html[form.end...].drop { $0 == "\n" || $0 == " " }
                #expect(next.hasPrefix(#"<input type="hidden" name="csrf" value="csrf-7Hq2v9">"#), "\(page.name)")
            }
        }
    }

    @Test("every control has a label, every id is unique, images have alt text, buttons are buttons")
    func accessibleNames() throws {
        for page in try Self.allPages() {
            let tags = StartTag.all(in: page.document.renderString())
            let ids = tags.compactMap { $0["id"] }
            #expect(Set(ids).count == ids.count, "\(page.name): duplicate ids")
            let labelled = Set(tags.filter { $0.name == "label" }.compactMap { $0["for"] })
            for control in tags where ["input", "select", "textarea"].contains(control.name) {
                guard control["type"] != "hidden" else { continue }
                #expect(control["id"].map(labelled.contains) == true, "\(page.name): \(control.attributes)")
            }
            for image in tags where image.name == "img" {
                #expect(image["alt"]?.isEmpty == false, "\(page.name)")
            }
            for button in tags where button.name == "button" {
                #expect(button["type"] == "submit", "\(page.name)")
            }
            #expect(!tags.contains { $0.name == "input" && ["submit", "button", "image"].contains($0["type"]) })
            #expect(!tags.contains { $0["role"] == "button" }, "\(page.name)")
        }
    }

    @Test("the controls carry the names docs/BEHAVIOUR.md §9 gives them")
    func controlNames() throws {
        let pages = Dictionary(
            uniqueKeysWithValues: try PageGallery.pages(for: .customer).map { ($0.name, $0.document.renderString()) })
        let expectations: [(page: String, labels: [String], buttons: [String])] = [
            ("catalog", ["Search", "Category", "Sort by"], ["Add to basket", "Show products", "Log out"]),
            ("product", ["Quantity"], ["Add to basket"]),
            ("basket", ["Quantity", "Promo code"], ["Update", "Remove", "Apply", "Checkout"]),
            ("checkout", ["Card", "Payment link", "QR code", "Test card"], ["Continue"]),
            ("checkout-review", [], ["Pay €45.36"]),
        ]
        for (name, labels, buttons) in expectations {
            let html = try #require(pages[name])
            for label in labels { #expect(html.texts(of: "label").contains(label), "\(name): \(label)") }
            for button in buttons { #expect(html.texts(of: "button").contains(button), "\(name): \(button)") }
        }
        let login = try PageGallery.pages(for: .anonymous).first { $0.name == "login" }?.document.renderString() ?? ""
        #expect(login.texts(of: "label") == ["Email", "Password"])
        #expect(login.texts(of: "button") == ["Log in"])
    }

    @Test("order times name their time zone")
    func orderTimesNameTheirZone() throws {
        let receipt = try Fixtures.receipt()
        // ICU puts a narrow no-break space (U+202F) before AM and PM.
        let zones: [(TimeZone?, String)] = [
            (TimeZone(secondsFromGMT: 0), "March 12, 2025 at 2:05\u{202F}PM GMT"),
            (TimeZone(identifier: "America/New_York"), "March 12, 2025 at 10:05\u{202F}AM EDT"),
        ]
        for (zone, shown) in zones {
            let context = PageContext(csrfToken: "csrf", timeZone: try #require(zone))
            let html = StorePages.receipt(receipt, context: context).renderString()
            #expect(html.contains(">\(shown)</time>"), "\(shown)")
            #expect(html.contains("datetime=\"2025-03-12T14:05:00Z\""))
        }
    }

    @Test("the checkout offers every sandbox card by token and never asks for a card number")
    func testCards() throws {
        let html = try #require(PageGallery.pages(for: .anonymous).first { $0.name == "checkout" }).document
            .renderString()
        let values = StartTag.all(in: html).filter { $0.name == "option" }.compactMap { $0["value"] }
        #expect(
            values == [
                "tok_visa", "tok_mastercard", "tok_chargeDeclined", "tok_insufficientFunds", "tok_timeout",
                "tok_unavailable", "tok_refundTimeout", "tok_refundFail", "tok_slow",
            ])
        #expect(!html.lowercased().contains("card number\""))
        #expect(!StartTag.all(in: html).contains { $0["autocomplete"]?.hasPrefix("cc-") == true })
    }
}
