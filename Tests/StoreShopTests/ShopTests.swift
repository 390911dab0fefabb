import Foundation
import StoreAPI
import StoreServerTestSupport
import TestWaiting
import Testing

/// `store shop`, the terminal storefront, against a real `store serve` (docs/BEHAVIOUR.md §12).
@Suite("store shop", .serialized) struct ShopTests {
    typealias CLI = StoreProcess

    /// Runs `body` with a fresh `store serve` on a free port and its base URL.
    static func withServer(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-shop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLI.launch(
            [
                "serve", "--port", "0", "--drain-seconds", "0", "--database",
                "sqlite:\(directory.appendingPathComponent("store.sqlite").path)",
            ])
        defer { if server.process.isRunning { server.process.terminate() } }
        let line = try await CLI.firstLine(of: server)
        let base = String(line.dropFirst("listening on ".count))
        try await body(base)
        server.process.terminate()
        _ = try await CLI.waitForExit(server)
    }

    @Test("--plain: a whole purchase, one command per line")
    func plainPurchase() async throws {
        try await Self.withServer { base in
            let script = """
                products apparel
                add 2
                add 3
                plus 3
                add 1
                basket
                promo nope
                promo RUN10
                methods
                pay card tok_nothing
                pay card tok_visa
                no
                pay card tok_visa
                yes
                basket
                orders
                fly
                login free@onlinestore.test free-demo-password
                profile
                quit
                """
            let shop = try CLI.launch(["shop", "--server", base, "--plain"], input: script + "\n")
            #expect(try await CLI.waitForExit(shop) == 0)
            let output = shop.stdout.text
            #expect(output.contains("Running cap"))
            #expect(!output.contains("Trail water bottle 750 ml\t€10.20"), "products apparel lists apparel only")
            #expect(output.contains("Running socks: 2"))
            // 10.20 + 21.90 + 2 × 8.95 = 50.00, free shipping; RUN10 takes 5.00 off.
            #expect(output.contains("Subtotal\t€50.00"))
            #expect(output.contains("Shipping\tfree"))
            #expect(output.contains("Total\t€45.00"))
            #expect(output.contains("error: "), "the unknown code and the unknown card are errors")
            #expect(output.contains("Pay €45.36? (yes/no)"))
            #expect(output.contains("Not paid."))
            #expect(output.contains("Paid. Order ord_"))
            #expect(output.contains("Total charged\t€45.36"))
            #expect(output.contains("Your basket is empty."))
            #expect(output.contains("error: unknown command 'fly'"))
            #expect(output.contains("Logged in as Sam Stride."))
            #expect(output.contains("Membership\t"))
            let orders = output.components(separatedBy: "\n").filter { $0.hasPrefix("ord_") }
            #expect(orders.count == 1, "\(output)")
        }
    }

    /// The full-screen mode in a real terminal (tmux): browse, add, basket, pay, receipt, resize.
    @Test("full screen in tmux: browse → add → basket → pay → receipt, and a resize")
    func fullScreenInTmux() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is not installed (scripts/install-deps.sh installs it)")
            return
        }
        try await Self.withServer { base in
            let session = "shop-\(UUID().uuidString.prefix(8))"
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("shop-cache-\(session)")
            defer { try? FileManager.default.removeItem(at: cache) }
            do {
                try await Self.drive(session: session, cache: cache, base: base)
            } catch {
                _ = try? await Self.tmux(["kill-session", "-t", session])
                throw error
            }
            _ = try? await Self.tmux(["kill-session", "-t", session])
        }
    }

    /// Starts `store shop` in a new tmux session and walks through a purchase.
    static func drive(session: String, cache: URL, base: String) async throws {
        try await Self.tmux([
            "new-session", "-d", "-s", session, "-x", "110", "-y", "32",
            "env TERM=screen XDG_CACHE_HOME=\(cache.path) \(CLI.storeBinary.path) shop --server \(base)",
        ])
        try await Self.waitFor("Running cap", in: session)
        // The cap is the second product: down once, then + adds it.
        try await Self.keys(session, "Down")
        try await Self.keys(session, "+")
        try await Self.waitFor("basket: 1", in: session)
        try await Self.keys(session, "b")
        try await Self.waitFor("Total", in: session)
        let basket = try await Self.capture(session)
        #expect(basket.contains("Running cap") && basket.contains("€21.90"))
        #expect(basket.contains("c checkout"), "the footer names the keys that work now")
        try await Self.keys(session, "c")
        try await Self.waitFor("Pay €", in: session)
        try await Self.keys(session, "y")
        try await Self.waitFor("Paid — order ord_", in: session)
        let receipt = try await Self.capture(session)
        #expect(receipt.contains("Total charged"))
        // A narrower terminal is drawn again at its size.
        try await Self.tmux(["resize-window", "-t", session, "-x", "72", "-y", "24"])
        try await Self.keys(session, "Escape")
        try await Self.waitFor("Products", in: session)
        let narrow = try await Self.capture(session)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 72 })
        try await Self.keys(session, "2")
        try await Self.waitFor("ord_", in: session)
        try await Self.keys(session, "q")
    }

    /// The order id in `text` after `prefix` (`Paid. Order ord_…`).
    static func orderID(after prefix: String, in text: String) throws -> String {
        guard let range = text.range(of: prefix) else { throw TestError("no \(prefix) in:\n\(text)") }
        return String(text[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// The demo owner refunds one unit of the order's first line through the back office's API.
    static func refundFirstLine(of id: String, base: String) async throws -> RefundBody {
        guard let url = URL(string: base) else { throw TestError("bad base \(base)") }
        return try await OwnerRefunds(base: url).refund(
            id, RefundRequestBody(lines: [RefundLineRequest(position: 0, quantity: 1)], reason: "damaged"))
    }

    @Test("--plain: a refunded order lists as partially refunded; its receipt shows each refund and the sum")
    func plainRefundedOrder() async throws {
        try await Self.withServer { base in
            let login = "login free@onlinestore.test free-demo-password"
            let buy = try CLI.launch(
                ["shop", "--server", base, "--plain"], input: "\(login)\nadd 2\npay card tok_visa\nyes\nquit\n")
            #expect(try await CLI.waitForExit(buy) == 0)
            let id = try Self.orderID(after: "Paid. Order ", in: buy.stdout.text)
            #expect(buy.stdout.text.contains("Payment\tPaid"))
            #expect(!buy.stdout.text.contains("Refunded"))

            let refund = try await Self.refundFirstLine(of: id, base: base)
            #expect(refund.amount.formatted(locale: Locale(identifier: "en_US")) == "€21.90")

            let look = try CLI.launch(
                ["shop", "--server", base, "--plain"], input: "\(login)\norders\norder \(id)\nquit\n")
            #expect(try await CLI.waitForExit(look) == 0)
            let output = look.stdout.text
            let listed = output.components(separatedBy: "\n").filter { $0.hasPrefix(id) }
            #expect(listed.count == 1 && listed[0].hasSuffix("\tPartially refunded"), "\(output)")
            #expect(output.contains("Payment\tPartially refunded"))
            #expect(output.contains("Refunded €21.90 on "), "\(output)")
            #expect(output.contains("  Running cap × 1\t€21.90"))
            #expect(output.contains("Refunded in all\t€21.90"))
        }
    }

    @Test("full screen in tmux: a refund made in the back office shows on the Orders tab and in the receipt")
    func fullScreenRefundInTmux() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            Issue.record("tmux is not installed (scripts/install-deps.sh installs it)")
            return
        }
        try await Self.withServer { base in
            let session = "shop-\(UUID().uuidString.prefix(8))"
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("shop-cache-\(session)")
            defer { try? FileManager.default.removeItem(at: cache) }
            do {
                try await Self.driveRefund(session: session, cache: cache, base: base)
            } catch {
                _ = try? await Self.tmux(["kill-session", "-t", session])
                throw error
            }
            _ = try? await Self.tmux(["kill-session", "-t", session])
        }
    }

    /// Buys the first product in `store shop`, refunds it in the back office, then opens the order.
    static func driveRefund(session: String, cache: URL, base: String) async throws {
        try await Self.tmux([
            "new-session", "-d", "-s", session, "-x", "110", "-y", "32",
            "env TERM=screen XDG_CACHE_HOME=\(cache.path) \(CLI.storeBinary.path) shop --server \(base)",
        ])
        try await Self.waitFor("Running cap", in: session)
        try await Self.keys(session, "+")
        try await Self.waitFor("basket: 1", in: session)
        try await Self.keys(session, "b")
        try await Self.waitFor("Total", in: session)
        try await Self.keys(session, "c")
        try await Self.waitFor("Pay €", in: session)
        try await Self.keys(session, "y")
        try await Self.waitFor("Paid — order ord_", in: session)
        let id = try Self.orderID(after: "Paid — order ", in: try await Self.capture(session))
        let refund = try await Self.refundFirstLine(of: id, base: base)
        let amount = refund.amount.formatted(locale: Locale(identifier: "en_US"))

        try await Self.keys(session, "Escape")
        try await Self.keys(session, "2")
        try await Self.waitFor(id, in: session)
        try await Self.waitFor("Partially refunded", in: session)
        try await Self.keys(session, "Enter")
        try await Self.waitFor("Refunded \(amount) on ", in: session)
        let receipt = try await Self.capture(session)
        #expect(receipt.contains("Payment          Partially refunded"), "\(receipt)")
        #expect(receipt.contains("Trail water bottle 750 ml × 1"))
        #expect(receipt.contains("Refunded in all  \(amount)"))
        try await Self.keys(session, "q")
    }

    // MARK: tmux

    @discardableResult
    static func tmux(_ arguments: [String]) async throws -> String {
        let (status, output) = try await ShortProgram.run("/usr/bin/tmux", arguments)
        guard status == 0 else { throw TestError("tmux \(arguments.first ?? "") ended with status \(status)") }
        return output
    }

    static func keys(_ session: String, _ key: String) async throws {
        try await tmux(["send-keys", "-t", session, key])
    }

    static func capture(_ session: String) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", session])
    }

    /// Waits (up to 20 s) until the screen shows `text`.
    static func waitFor(_ text: String, in session: String) async throws {
        if try await eventually(
            timeout: .seconds(20), every: .milliseconds(100), { try await capture(session).contains(text) })
        {
            return
        }
        throw TestError("the screen never showed \(text):\n\(try await capture(session))")
    }
}
