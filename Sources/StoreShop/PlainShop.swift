import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures

/// `store shop --plain`: the app's screens as one command per line, one answer per command, for
/// scripts and tests (docs/BEHAVIOUR.md §12). Every command goes through the same models an app's
/// views bind to — the counters of the product list, the basket's steppers and confirm step — so
/// what a script sees is what a person tapping the app would.
@MainActor
public final class PlainShop {
    public let root: RootModel
    private let readLine: () async -> String?
    private let write: (String) -> Void

    /// A shop over `root`, reading commands with `readLine` (`nil` at the end of the input) and
    /// writing each line of an answer with `write`.
    public init(root: RootModel, readLine: @escaping () async -> String?, write: @escaping (String) -> Void) {
        self.root = root
        self.readLine = readLine
        self.write = write
    }

    /// Runs commands until `quit` or the end of the input.
    public func run() async {
        write("OnlineStore — type help for the commands.")
        while let line = await readLine() {
            if await execute(line) == false { return }
        }
    }

    /// Runs one command line; `false` after `quit`.
    @discardableResult
    public func execute(_ line: String) async -> Bool {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first?.lowercased() else { return true }
        let arguments = Array(words.dropFirst())
        switch command {
        case "help": help()
        case "quit", "exit": return false
        case "products": await products(category: arguments.first)
        case "add", "plus", "minus": await counter(command, arguments)
        case "qty": await quantity(arguments)
        case "remove": await remove(arguments)
        case "basket": await showBasket()
        case "promo": await promo(arguments)
        case "methods": await methods()
        case "pay": await pay(arguments)
        case "orders": await orders()
        case "order": await order(arguments)
        case "login": await logIn(arguments)
        case "logout": await logOut()
        case "profile": await profile()
        default: error("unknown command '\(command)' (type help)")
        }
        return true
    }

    // MARK: - Commands

    private func help() {
        for line in [
            "products [CATEGORY]        the products with their counters",
            "add ID | plus ID | minus ID  the product's counter, as the + and − buttons",
            "qty ID N | remove ID       change a basket line",
            "basket                     the basket and its totals",
            "promo CODE | promo off     apply or remove a promo code",
            "methods                    payment methods with their fees",
            "pay METHOD [TOKEN]         card tok_visa | payment_link | qr_code; asks Pay €X.XX? yes/no",
            "orders | order ID          your orders, one receipt",
            "login EMAIL PASSWORD | logout | profile",
            "help | quit",
        ] {
            write(line)
        }
    }

    private func products(category: String?) async {
        let list = root.productList
        await list.task()
        if case .failed(let message) = list.state {
            await list.tryAgainButtonTapped()
            if list.state.value == nil { return error(message) }
        }
        guard let products = list.state.value else { return error("the products are not loaded") }
        let shown = products.filter { category == nil || $0.category.lowercased() == category?.lowercased() }
        if shown.isEmpty { return write("no products" + (category.map { " in \($0)" } ?? "")) }
        for product in shown {
            let stock = StockState(units: product.stock).plainLabel ?? "in stock"
            write(
                "\(product.id)\t\(product.title)\t\(money(product.price))\t\(stock)\tin basket: \(list.count(of: product))"
            )
        }
    }

    private func counter(_ command: String, _ arguments: [String]) async {
        guard let product = await product(arguments.first) else { return }
        let list = root.productList
        switch command {
        case "plus": await list.plusButtonTapped(product: product)
        case "minus": await list.minusButtonTapped(product: product)
        default:
            if list.count(of: product) == 0 {
                await list.addButtonTapped(product: product)
            } else {
                await list.plusButtonTapped(product: product)
            }
        }
        if let alert = list.alert {
            list.alert = nil
            if case .basketChangeFailed(let message) = alert { return error(message) }
        }
        write("\(product.title): \(list.count(of: product))")
    }

    private func quantity(_ arguments: [String]) async {
        guard arguments.count == 2, let wanted = Int(arguments[1]), (0...ProductListModel.maximumCount).contains(wanted)
        else { return error("usage: qty ID N (N from 0 to \(ProductListModel.maximumCount))") }
        guard let product = await product(arguments.first) else { return }
        let list = root.productList
        // Step the counter as the buttons would, stopping when a step changes nothing.
        while list.count(of: product) != wanted {
            let before = list.count(of: product)
            if before < wanted {
                if before == 0 {
                    await list.addButtonTapped(product: product)
                } else {
                    await list.plusButtonTapped(product: product)
                }
            } else {
                await list.minusButtonTapped(product: product)
            }
            if list.count(of: product) == before { break }
        }
        if let alert = list.alert, case .basketChangeFailed(let message) = alert {
            list.alert = nil
            return error(message)
        }
        write("\(product.title): \(list.count(of: product))")
    }

    private func remove(_ arguments: [String]) async {
        let basket = root.basket
        await basket.task()
        guard let id = arguments.first.flatMap({ Int64($0) }),
            let line = basket.basket?.items.first(where: { $0.productID == id })
        else { return error("no such line in the basket") }
        await basket.removeButtonTapped(line: line)
        if let alert = basket.alert, case .changeFailed(let message) = alert {
            basket.alert = nil
            return error(message)
        }
        await showBasket()
    }

    private func showBasket() async {
        let model = root.basket
        await model.task()
        if case .failed = model.state { await model.tryAgainButtonTapped() }
        guard let basket = model.basket else {
            if case .failed(let message) = model.state { return error(message) }
            return error("the basket is not loaded")
        }
        if basket.items.isEmpty { return write("Your basket is empty.") }
        for line in basket.items {
            write(
                "\(line.productID)\t\(line.title)\t\(line.quantity) × \(money(line.unitPrice))\t\(money(line.lineTotal))"
            )
        }
        write("Subtotal\t\(money(basket.subtotal))")
        if let promotion = basket.promotion {
            write("Discount (\(promotion.code))\t−\(money(basket.discount))")
        }
        write("Shipping\t\(basket.shipping.isZero ? "free" : money(basket.shipping))")
        write("Total\t\(money(basket.total))")
        if let hint = model.freeShippingHint { write(hint) }
        if let notice = basket.promoNotice { write(notice) }
    }

    private func promo(_ arguments: [String]) async {
        guard let code = arguments.first else { return error("usage: promo CODE | promo off") }
        let model = root.basket
        await model.task()
        if code.lowercased() == "off" {
            await model.removePromoButtonTapped()
        } else {
            model.promoCode = code
            await model.applyPromoButtonTapped()
            if let message = model.promoError { return error(message) }
        }
        await showBasket()
    }

    private func methods() async {
        let model = root.basket
        await model.task()
        guard model.basket != nil else { return error("the basket is not loaded") }
        for option in model.paymentOptions {
            write(
                "\(option.kind.rawValue)\t\(option.kind.displayName)\tfee \(money(option.fee))\tpay \(money(option.amountDue))"
            )
        }
    }

    private func pay(_ arguments: [String]) async {
        let model = root.basket
        await model.task()
        guard let kindName = arguments.first, let kind = PaymentMethod.Kind(rawValue: kindName.lowercased()) else {
            return error("usage: pay card TOKEN | pay payment_link | pay qr_code")
        }
        guard model.basket?.items.isEmpty == false else { return error("Your basket is empty.") }
        model.paymentMethodSelected(kind)
        if kind == .card {
            guard let text = arguments.dropFirst().first,
                let token = BasketModel.sandboxCardTokens.first(where: { $0.rawValue == text })
            else {
                return error(
                    "a card payment needs a test card: "
                        + BasketModel.sandboxCardTokens.map(\.rawValue).joined(separator: ", "))
            }
            model.cardTokenSelected(token)
        }
        model.payButtonTapped()
        guard let question = model.confirmationQuestion else { return error("nothing to pay now") }
        write(question + " (yes/no)")
        guard let answer = await readLine()?.trimmingCharacters(in: .whitespaces).lowercased(),
            answer == "yes" || answer == "y"
        else {
            model.cancelPaymentTapped()
            return write("Not paid.")
        }
        await model.confirmPaymentTapped()
        if case .receipt(let order) = model.destination {
            receipt(order)
            model.receiptDoneButtonTapped()
        } else if let message = model.paymentFailureMessage {
            error(message)
        } else {
            error("the payment did not finish")
        }
    }

    private func orders() async {
        let model = root.orders
        await model.refreshPulled()
        if case .failed(let message) = model.state { return error(message) }
        let list = model.state.value ?? []
        if list.isEmpty { return write("No orders yet.") }
        for order in list {
            write(
                "\(order.id)\t\(date(order.createdAt))\t\(money(order.total))\t\(model.paymentStatusLabel(of: order))")
        }
    }

    private func order(_ arguments: [String]) async {
        guard let id = arguments.first else { return error("usage: order ID") }
        let model = root.orders
        await model.task()
        await model.orderTapped(id: id)
        if case .receipt(let order) = model.destination {
            model.destination = nil
            return receipt(order)
        }
        if case .receiptFailed(let message) = model.alert {
            model.alert = nil
            return error(message)
        }
        error("no such order")
    }

    private func logIn(_ arguments: [String]) async {
        guard arguments.count == 2 else { return error("usage: login EMAIL PASSWORD") }
        root.logInButtonTapped()
        guard case .login(let login) = root.destination else { return error("cannot log in now") }
        login.email = arguments[0]
        login.password = arguments[1]
        await login.logInButtonTapped()
        if let message = login.errorMessage { return error(message) }
        guard let customer = root.customer else { return error("not logged in") }
        write("Logged in as \(customer.firstName) \(customer.lastName).")
    }

    private func logOut() async {
        guard root.customer != nil else { return error("not logged in") }
        await root.logOutButtonTapped()
        write("Logged out.")
    }

    private func profile() async {
        let model = root.profile
        guard root.customer != nil else { return error("Log in to see your profile.") }
        await model.task()
        if case .failed = model.state { await model.tryAgainButtonTapped() }
        if case .failed(let message) = model.state { return error(message) }
        write("Name\t\(model.fullName ?? "")")
        write("Email\t\(model.email ?? "")")
        write("Membership\t\(model.tierLabel) (\(model.confirmationLabel))")
    }

    // MARK: - Helpers

    private func receipt(_ order: OrderBody) {
        write("Paid. Order \(order.id), \(date(order.createdAt))")
        for line in order.lines {
            write("\(line.title)\t\(line.quantity) × \(money(line.unitPrice))\t\(money(line.lineTotal))")
        }
        for row in ReceiptTotals(order, money: money).rows { write("\(row.label)\t\(row.value)") }
        for row in ReceiptRefundRows(root.orders.refunds(of: order), money: money).rows {
            switch row {
            case .fact(let label, let value): write("\(label)\t\(value)")
            case .refund(let headline): write(headline)
            case .part(let label, let value): write("  \(label)\t\(value)")
            }
        }
    }

    private func product(_ text: String?) async -> ProductBody? {
        let list = root.productList
        await list.task()
        guard let text, let id = Int64(text) else {
            error("usage: a product id (see products)")
            return nil
        }
        guard let product = list.state.value?.first(where: { $0.id == id }) else {
            error("no product \(id)")
            return nil
        }
        return product
    }

    private func money(_ amount: Money) -> String {
        root.basket.formatted(amount)
    }

    private func date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    private func error(_ message: String) {
        write("error: " + message)
    }
}

extension StockState {
    /// "only 3 left", "sold out", or `nil` when there is plenty: the terminal's words.
    var plainLabel: String? {
        switch self {
        case .inStock: nil
        case .low(let units): "only \(units) left"
        case .soldOut: "sold out"
        }
    }
}
