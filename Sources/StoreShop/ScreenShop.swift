import CNCurses
import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures

/// `store shop` on a terminal: the app's tabs, the basket and its confirm step drawn full screen
/// with ncurses, driven by the same models an app binds its views to (docs/BEHAVIOUR.md §12).
///
/// Keys are read with a short timeout so the models' work (on the main actor) runs between
/// keystrokes; the screen is drawn from the models after every key and every tick, so what is
/// shown is always what the models say. A resized terminal is simply drawn again at its new size.
@MainActor
public final class ScreenShop {
    private enum Screen: Equatable {
        case tabs
        case basket
        case help
    }

    /// A line being typed in the footer (a promo code, an email, a password).
    private struct Prompt {
        enum Purpose {
            case promo
            case email
            case password(email: String)
        }
        var purpose: Purpose
        var label: String
        var text = ""
        var secret = false
    }

    public let root: RootModel
    private var screen = Screen.tabs
    private var selection: [RootModel.Tab: Int] = [:]
    private var basketSelection = 0
    private var prompt: Prompt?
    private var message: String?
    private var running = true

    public init(root: RootModel) {
        self.root = root
    }

    /// Runs until the shopper presses `q`.
    public func run() async {
        cnc_use_locale()
        initscr()
        cbreak()
        noecho()
        _ = cnc_keypad()
        curs_set(0)
        cnc_read_timeout(50)
        defer { endwin() }
        Task { await root.productList.task() }
        while running {
            draw()
            let key = getch()
            if key == ERR {
                try? await Task.sleep(for: .milliseconds(30))
                continue
            }
            await handle(key)
        }
    }

    // MARK: - Keys

    private func handle(_ key: Int32) async {
        if key == cnc_key_resize() { return }
        if prompt != nil { return await type(key) }
        message = nil
        switch screen {
        case .help:
            screen = .tabs
        case .tabs:
            await tabsKey(key)
        case .basket:
            await basketKey(key)
        }
    }

    private func tabsKey(_ key: Int32) async {
        let tab = root.selectedTab
        switch key {
        case Self.key("q"): running = false
        case Self.key("?"): screen = .help
        case Self.key("1"): select(.products)
        case Self.key("2"): select(.orders)
        case Self.key("3"): select(.profile)
        case 9: select(RootModel.Tab.allCases[(RootModel.Tab.allCases.firstIndex(of: tab).map { $0 + 1 } ?? 0) % 3])
        case cnc_key_up(): move(by: -1)
        case cnc_key_down(): move(by: 1)
        case Self.key("b"):
            root.basketButtonTapped()
            screen = .basket
            basketSelection = 0
            await root.basket.task()
        default:
            switch tab {
            case .products: await productKey(key)
            case .orders: await ordersKey(key)
            case .profile: await profileKey(key)
            }
        }
    }

    private func productKey(_ key: Int32) async {
        let list = root.productList
        guard let products = list.state.value, !products.isEmpty else {
            if key == Self.key("r") { await list.tryAgainButtonTapped() }
            return
        }
        let product = products[min(selection[.products, default: 0], products.count - 1)]
        switch key {
        case Self.key("+"), Self.key("="), cnc_key_right(), Self.key("a"):
            if list.count(of: product) == 0 {
                await list.addButtonTapped(product: product)
            } else {
                await list.plusButtonTapped(product: product)
            }
        case Self.key("-"), cnc_key_left():
            await list.minusButtonTapped(product: product)
        default: break
        }
        if case .basketChangeFailed(let text) = list.alert {
            list.alert = nil
            message = text
        }
    }

    private func ordersKey(_ key: Int32) async {
        let model = root.orders
        switch key {
        case Self.key("r"): await model.refreshPulled()
        case 10, 13, cnc_key_enter():
            if case .receipt = model.destination {
                model.destination = nil
            } else if let orders = model.state.value, !orders.isEmpty {
                await model.orderTapped(id: orders[min(selection[.orders, default: 0], orders.count - 1)].id)
            }
        default: break
        }
    }

    private func profileKey(_ key: Int32) async {
        switch key {
        case Self.key("l") where root.customer == nil:
            prompt = Prompt(purpose: .email, label: "Email")
        case Self.key("o") where root.customer != nil:
            await root.logOutButtonTapped()
            message = "Logged out."
        case Self.key("r"):
            await root.profile.tryAgainButtonTapped()
        default: break
        }
    }

    private func basketKey(_ key: Int32) async {
        let model = root.basket
        if let question = model.confirmationQuestion {
            _ = question
            switch key {
            case Self.key("y"): await model.confirmPaymentTapped()
            case Self.key("n"), 27: model.cancelPaymentTapped()
            default: break
            }
            if let failure = model.paymentFailureMessage { message = failure }
            return
        }
        if case .receipt = model.destination {
            model.receiptDoneButtonTapped()
            screen = .tabs
            return
        }
        let lines = model.basket?.items ?? []
        let line = lines.isEmpty ? nil : lines[min(basketSelection, lines.count - 1)]
        switch key {
        case Self.key("q"), 27, Self.key("b"):
            root.destination = nil
            screen = .tabs
        case Self.key("?"): screen = .help
        case cnc_key_up(): basketSelection = max(0, basketSelection - 1)
        case cnc_key_down(): basketSelection = min(max(0, lines.count - 1), basketSelection + 1)
        case Self.key("+"), Self.key("="), cnc_key_right():
            if let line, model.canIncrement(line) { await model.incrementButtonTapped(line: line) }
        case Self.key("-"), cnc_key_left():
            if let line, model.canDecrement(line) { await model.decrementButtonTapped(line: line) }
        case Self.key("d"):
            if let line { await model.removeButtonTapped(line: line) }
        case Self.key("p"):
            prompt = Prompt(purpose: .promo, label: "Promo code")
        case Self.key("x"):
            await model.removePromoButtonTapped()
        case Self.key("m"):
            let kinds = PaymentMethod.Kind.allCases
            let next = kinds[((kinds.firstIndex(of: model.selectedKind) ?? 0) + 1) % kinds.count]
            model.paymentMethodSelected(next)
        case Self.key("t"):
            let cards = BasketModel.sandboxCardTokens
            let current = model.selectedCardToken.flatMap { cards.firstIndex(of: $0) } ?? -1
            model.cardTokenSelected(cards[(current + 1) % cards.count])
        case Self.key("c"), 10, 13, cnc_key_enter():
            if model.canPay { model.payButtonTapped() }
        case Self.key("r"):
            await model.tryAgainButtonTapped()
        default: break
        }
        if case .changeFailed(let text) = model.alert {
            model.alert = nil
            message = text
        }
    }

    /// A key while a prompt is open: letters join the text, Enter submits, Escape cancels.
    private func type(_ key: Int32) async {
        guard var current = prompt else { return }
        switch key {
        case 27:
            prompt = nil
        case 10, 13, cnc_key_enter():
            prompt = nil
            await submit(current)
        case 127, 8, cnc_key_backspace():
            if !current.text.isEmpty { current.text.removeLast() }
            prompt = current
        case 32...126:
            if current.text.count < 254, let scalar = Unicode.Scalar(UInt32(key)) {
                current.text.append(Character(scalar))
            }
            prompt = current
        default:
            break
        }
    }

    private func submit(_ prompt: Prompt) async {
        switch prompt.purpose {
        case .promo:
            root.basket.promoCode = prompt.text
            await root.basket.applyPromoButtonTapped()
            message = root.basket.promoError ?? "Promo code applied."
        case .email:
            self.prompt = Prompt(purpose: .password(email: prompt.text), label: "Password", secret: true)
        case .password(let email):
            root.logInButtonTapped()
            guard case .login(let login) = root.destination else { return }
            login.email = email
            login.password = prompt.text
            await login.logInButtonTapped()
            message = login.errorMessage ?? root.customer.map { "Logged in as \($0.firstName) \($0.lastName)." }
            root.destination = nil
        }
    }

    private func select(_ tab: RootModel.Tab) {
        root.selectedTab = tab
        Task {
            switch tab {
            case .products: await root.productList.task()
            case .orders: await root.orders.task()
            case .profile: if root.customer != nil { await root.profile.task() }
            }
        }
    }

    private func move(by step: Int) {
        let tab = root.selectedTab
        let count: Int =
            switch tab {
            case .products: root.productList.state.value?.count ?? 0
            case .orders: root.orders.state.value?.count ?? 0
            case .profile: 0
            }
        selection[tab] = max(0, min(max(0, count - 1), selection[tab, default: 0] + step))
    }

    private static func key(_ character: Character) -> Int32 {
        Int32(character.asciiValue ?? 0)
    }

    // MARK: - Drawing

    private func draw() {
        erase()
        let width = Int(cnc_columns())
        let height = Int(cnc_lines())
        header(width: width)
        switch screen {
        case .help: drawHelp()
        case .tabs:
            switch root.selectedTab {
            case .products: drawProducts(height: height)
            case .orders: drawOrders(height: height)
            case .profile: drawProfile()
            }
        case .basket: drawBasket(height: height)
        }
        footer(width: width, height: height)
        refresh()
    }

    private func header(width: Int) {
        _ = cnc_reverse(1)
        let count = root.productList.counts.values.reduce(0, +)
        let who = root.customer.map { "\($0.firstName) \($0.lastName)" } ?? "not logged in"
        put(0, 0, pad(" OnlineStore   basket: \(count)   \(who)", width))
        _ = cnc_reverse(0)
        var x = 1
        for (index, tab) in RootModel.Tab.allCases.enumerated() {
            let title = "\(index + 1) \(Self.title(tab))"
            let selected = screen != .basket && root.selectedTab == tab
            if selected { _ = cnc_bold(1) }
            put(1, x, selected ? "[\(title)]" : " \(title) ")
            if selected { _ = cnc_bold(0) }
            x += title.count + 3
        }
    }

    private func footer(width: Int, height: Int) {
        let row = max(3, height - 1)
        if let prompt {
            _ = cnc_reverse(1)
            let shown = prompt.secret ? String(repeating: "*", count: prompt.text.count) : prompt.text
            put(row, 0, pad(" \(prompt.label): \(shown)_   Enter OK  Esc cancel", width))
            _ = cnc_reverse(0)
            return
        }
        if let message { put(row - 1, 1, String(message.prefix(max(0, width - 2)))) }
        _ = cnc_reverse(1)
        put(row, 0, pad(" " + keys(), width))
        _ = cnc_reverse(0)
    }

    /// The keys that work now.
    private func keys() -> String {
        switch screen {
        case .help: return "any key  back"
        case .basket:
            if root.basket.confirmationQuestion != nil { return "y pay  n cancel" }
            if case .receipt = root.basket.destination { return "any key  done" }
            return "↑↓ line  +/- quantity  d remove  p promo  x no promo  m method  t card  c checkout  b back  ? help"
        case .tabs:
            switch root.selectedTab {
            case .products: return "↑↓ move  +/- counter  b basket  1-3 tabs  ? help  q quit"
            case .orders:
                if root.orders.receipt != nil { return "Enter back to the orders  1-3 tabs  ? help  q quit" }
                return "↑↓ move  Enter receipt  r refresh  1-3 tabs  ? help  q quit"
            case .profile:
                return root.customer == nil
                    ? "l log in  1-3 tabs  ? help  q quit" : "o log out  r refresh  1-3 tabs  q quit"
            }
        }
    }

    private func drawHelp() {
        let lines = [
            "Keys",
            "1 2 3, Tab    Products, Orders, Profile",
            "↑ ↓           move the selection",
            "+ − (→ ←)     the selected product's counter (adds to the basket)",
            "b             open or close the basket",
            "In the basket: + − quantity, d remove, p promo code, x remove the code,",
            "               m payment method, t test card, c checkout, then y to pay",
            "l / o         log in / log out (Profile)",
            "q             quit",
        ]
        for (index, line) in lines.enumerated() { put(3 + index, 2, line) }
    }

    private func drawProducts(height: Int) {
        let list = root.productList
        switch list.state {
        case .notStarted, .loading: put(3, 2, "Loading the products…")
        case .failed(let message): put(3, 2, "\(message)  (r: try again)")
        case .loaded(let products):
            let selected = min(selection[.products, default: 0], max(0, products.count - 1))
            let visible = max(1, height - 6)
            let first = max(0, selected - visible + 1)
            for (offset, product) in products.dropFirst(first).prefix(visible).enumerated() {
                let index = first + offset
                let stock = StockState(units: product.stock).plainLabel ?? ""
                let count = list.count(of: product)
                let line =
                    "\(pad(product.title, 30)) \(pad(money(product.price), 9)) \(pad(stock, 14)) "
                    + (count == 0 ? "[ add ]" : "[ − \(count) + ]")
                if index == selected { _ = cnc_reverse(1) }
                put(3 + offset, 1, line)
                if index == selected { _ = cnc_reverse(0) }
            }
        }
    }

    private func drawOrders(height: Int) {
        let model = root.orders
        if case .receipt(let order) = model.destination { return drawReceipt(order) }
        switch model.state {
        case .notStarted, .loading: put(3, 2, "Loading your orders…")
        case .failed(let message): put(3, 2, "\(message)  (r: try again)")
        case .loaded(let orders):
            if orders.isEmpty { return put(3, 2, "No orders yet.") }
            let selected = min(selection[.orders, default: 0], orders.count - 1)
            for (index, order) in orders.prefix(max(1, height - 6)).enumerated() {
                if index == selected { _ = cnc_reverse(1) }
                put(
                    3 + index, 1,
                    "\(pad(order.id, 32)) \(pad(money(order.total), 10)) \(model.paymentStatusLabel(of: order))")
                if index == selected { _ = cnc_reverse(0) }
            }
        }
    }

    private func drawProfile() {
        guard root.customer != nil else { return put(3, 2, "Log in to see your profile (l).") }
        let model = root.profile
        if case .failed(let message) = model.state, model.fullName == nil {
            return put(3, 2, "\(message)  (r: try again)")
        }
        put(3, 2, "Name        \(model.fullName ?? "…")")
        put(4, 2, "Email       \(model.email ?? "…")")
        put(5, 2, "Membership  \(model.tierLabel)")
        put(6, 2, "            \(model.confirmationLabel)")
    }

    private func drawBasket(height: Int) {
        let model = root.basket
        if case .receipt(let order) = model.destination { return drawReceipt(order) }
        _ = cnc_bold(1)
        put(2, 1, "Basket")
        _ = cnc_bold(0)
        guard let basket = model.basket else {
            if case .failed(let message) = model.state { return put(3, 2, "\(message)  (r: try again)") }
            return put(3, 2, "Loading the basket…")
        }
        if basket.items.isEmpty { return put(3, 2, "Your basket is empty. Press b and add something.") }
        var row = 3
        for (index, line) in basket.items.enumerated() where row < height - 12 {
            let text =
                "\(pad(line.title, 30)) \(pad("− \(line.quantity) +", 8)) × \(pad(money(line.unitPrice), 9)) \(money(line.lineTotal))"
            if index == min(basketSelection, basket.items.count - 1) { _ = cnc_reverse(1) }
            put(row, 1, text)
            if index == min(basketSelection, basket.items.count - 1) { _ = cnc_reverse(0) }
            row += 1
        }
        row += 1
        var totals = ["Subtotal   \(money(basket.subtotal))"]
        if let promotion = basket.promotion {
            totals.append("Discount   −\(money(basket.discount)) (\(promotion.code))")
        }
        totals.append("Shipping   \(basket.shipping.isZero ? "free" : money(basket.shipping))")
        for line in totals {
            put(row, 2, line)
            row += 1
        }
        _ = cnc_bold(1)
        put(row, 2, "Total      \(money(basket.total))")
        _ = cnc_bold(0)
        row += 1
        for note in [model.freeShippingHint, basket.promoNotice].compactMap({ $0 }) {
            put(row, 2, note)
            row += 1
        }
        let option = model.selectedOption
        var method = "Method     \(option?.kind.displayName ?? model.selectedKind.rawValue)"
        if model.selectedKind == .card, let card = model.selectedCardToken { method += " (\(card.rawValue))" }
        if let option { method += "   fee \(money(option.fee))   pay \(money(option.amountDue))" }
        put(row + 1, 2, method)
        row += 1
        if let question = model.confirmationQuestion {
            _ = cnc_reverse(1)
            put(row + 2, 2, " \(question)  y / n ")
            _ = cnc_reverse(0)
        } else if model.isPaying {
            put(row + 2, 2, "Paying…")
        }
    }

    private func drawReceipt(_ order: OrderBody) {
        _ = cnc_bold(1)
        put(3, 2, "Paid — order \(order.id)")
        _ = cnc_bold(0)
        var row = 5
        for line in order.lines {
            put(
                row, 2,
                "\(pad(line.title, 30)) \(line.quantity) × \(pad(money(line.unitPrice), 9)) \(money(line.lineTotal))")
            row += 1
        }
        row += 1
        for total in ReceiptTotals(order, money: money).rows {
            if total.emphasized { _ = cnc_bold(1) }
            put(row, 2, "\(pad(total.label, 16)) \(total.value)")
            if total.emphasized { _ = cnc_bold(0) }
            row += 1
        }
        row += 1
        for refund in ReceiptRefundRows(root.orders.refunds(of: order), money: money).rows {
            switch refund {
            case .fact(let label, let value):
                put(row, 2, "\(pad(label, 16)) \(value)")
            case .refund(let headline):
                _ = cnc_bold(1)
                put(row, 2, headline)
                _ = cnc_bold(0)
            case .part(let label, let value):
                put(row, 4, "\(pad(label, 30)) \(value)")
            }
            row += 1
        }
    }

    // MARK: - Helpers

    private static func title(_ tab: RootModel.Tab) -> String {
        switch tab {
        case .products: "Products"
        case .orders: "Orders"
        case .profile: "Profile"
        }
    }

    /// Writes `text` at `row`, `column`, cut at the right edge of the terminal.
    private func put(_ row: Int, _ column: Int, _ text: String) {
        guard row >= 0, row < Int(cnc_lines()), column < Int(cnc_columns()) else { return }
        let room = max(0, Int(cnc_columns()) - column)
        _ = cnc_print(Int32(row), Int32(column), String(text.prefix(room)))
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }

    private func money(_ amount: Money) -> String {
        root.basket.formatted(amount)
    }
}
