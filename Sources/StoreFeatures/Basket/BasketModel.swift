import CheckoutKit
import Foundation
import Observation
import StoreAPI
import StoreClient

/// The basket and its checkout (docs/BEHAVIOUR.md §10): lines with steppers, the promotion code, the payment
/// method, a confirm step, and paying under the rules that never charge twice (docs/BEHAVIOUR.md §5).
///
/// Paying follows a ``CheckoutAttempt``: one idempotency key per attempt, made when the shopper
/// confirms; a second tap while paying does nothing; after an unknown outcome (a timeout,
/// `unavailable`) the retry sends the same request with the same key; a paid or declined answer
/// ends the attempt; any change to the basket or the method starts a new attempt and clears the
/// failure shown. While paying, every edit is disabled.
@MainActor
@Observable
public final class BasketModel {
    /// What the screen presents over the basket.
    public enum Destination: Hashable, Sendable {
        /// The confirm step: "Pay €X.XX?" with the amount due for the chosen method.
        case confirmPayment(amountDue: Money)
        /// The payment went through: the receipt.
        case receipt(OrderBody)
    }

    /// An alert the screen shows.
    public enum Alert: Hashable, Sendable {
        /// A change to a line was refused or lost; the basket shown is still the server's last answer.
        case changeFailed(message: String)
    }

    /// The sandbox provider's test cards (``CheckoutKit/SandboxCard``), offered by token: never a
    /// card number.
    public static let sandboxCardTokens: [CardToken] = SandboxCard.allCases.map(\.token)

    /// How often a checkout answered "still in progress" is sent again before giving up for now.
    public static let inProgressRetries = 5
    /// How long to wait before sending it again.
    public static let inProgressDelay: Duration = .seconds(1)

    public private(set) var state: LoadState<BasketBody> = .notStarted
    public var destination: Destination?
    public var alert: Alert?
    /// The promotion code field, as typed.
    public var promoCode = ""
    /// Why the last code was refused ("That code isn't valid.").
    public private(set) var promoError: String?
    /// The chosen payment method.
    public private(set) var selectedKind: PaymentMethod.Kind = .card
    /// The chosen sandbox card, for a card payment.
    public private(set) var selectedCardToken: CardToken? = BasketModel.sandboxCardTokens.first
    /// Why the last payment did not go through; cleared by any change to the basket or the method.
    public private(set) var paymentFailure: StoreClientError?
    /// The idempotency rules of the current payment attempt.
    public private(set) var attempt = CheckoutAttempt()
    /// A change of the basket is on its way.
    public private(set) var isUpdating = false

    /// Called with every basket this screen received, so the product counters follow it.
    public var onBasketChanged: @MainActor (BasketBody) -> Void = { _ in }
    /// Called with the order once a payment went through.
    public var onPaid: @MainActor (OrderBody) -> Void = { _ in }

    /// The request sent with the current key, sent again unchanged when the key is reused.
    private var sentRequest: CheckoutRequest?
    private let basketClient: any BasketClient
    private let checkoutClient: any CheckoutClient
    private let makeKey: @MainActor () -> IdempotencyKey
    private let sleep: @Sendable (Duration) async throws -> Void
    private let locale: Locale

    /// - Parameters:
    ///   - makeKey: makes the idempotency key of each new attempt (a random UUID by default).
    ///   - sleep: waits between retries of a payment still in progress.
    ///   - locale: the locale amounts are written in.
    public init(
        basket: any BasketClient, checkout: any CheckoutClient,
        makeKey: @escaping @MainActor () -> IdempotencyKey = IdempotencyKey.uuid,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        locale: Locale = .current
    ) {
        self.basketClient = basket
        self.checkoutClient = checkout
        self.makeKey = makeKey
        self.sleep = sleep
        self.locale = locale
    }

    // MARK: What the screen shows

    /// The basket, once loaded.
    public var basket: BasketBody? { state.value }

    /// Whether the loaded basket has no lines ("Your basket is empty.").
    public var isEmpty: Bool { basket?.items.isEmpty ?? false }

    /// A payment is on its way.
    public var isPaying: Bool { attempt.isPaying }

    /// Whether lines, the code and the method can be changed now: not while paying, not while
    /// another change is on its way.
    public var canEdit: Bool { basket != nil && !isPaying && !isUpdating }

    /// Whether the line's + is enabled (below 10).
    public func canIncrement(_ line: LineItemBody) -> Bool {
        canEdit && line.quantity < Quantity.range.upperBound
    }

    /// Whether the line's − is enabled (above 1; removing is its own action).
    public func canDecrement(_ line: LineItemBody) -> Bool {
        canEdit && line.quantity > Quantity.range.lowerBound
    }

    /// "€28.10 more for free shipping", while shipping is not free.
    public var freeShippingHint: String? {
        basket?.amountToFreeShipping.map { "\(formatted($0)) more for free shipping" }
    }

    /// The methods on offer with their fees and amounts due.
    public var paymentOptions: [PaymentQuote] {
        basket?.paymentOptions.compactMap(PaymentQuote.init) ?? []
    }

    /// The offer for the chosen method.
    public var selectedOption: PaymentQuote? {
        paymentOptions.first { $0.kind == selectedKind }
    }

    /// The chosen method with its details, when complete.
    public var selectedMethod: PaymentMethod? {
        switch selectedKind {
        case .card: selectedCardToken.map(PaymentMethod.card)
        case .paymentLink: .paymentLink
        case .qrCode: .qrCode
        }
    }

    /// Whether Pay is enabled: a basket with lines, a complete method on offer, nothing on its way.
    public var canPay: Bool {
        canEdit && !isEmpty && selectedMethod != nil && selectedOption != nil
    }

    /// The confirm step's question, "Pay €26.85?", while it is shown.
    public var confirmationQuestion: String? {
        guard case .confirmPayment(let amountDue) = destination else { return nil }
        return "Pay \(formatted(amountDue))?"
    }

    /// Why the last payment did not go through, for people.
    public var paymentFailureMessage: String? { paymentFailure?.paymentMessage }

    /// `money` written for people in the screen's locale: €50.00 in `en_US`.
    public func formatted(_ money: Money) -> String {
        money.formatted(locale: locale)
    }

    // MARK: What the person did

    /// The screen appeared: loads the basket once.
    public func task() async {
        guard !state.isLoadingOrLoaded else { return }
        await load()
    }

    /// "Try again" after a failed load.
    public func tryAgainButtonTapped() async {
        guard case .failed = state else { return }
        await load()
    }

    /// + on a line.
    public func incrementButtonTapped(line: LineItemBody) async {
        guard canIncrement(line) else { return }
        await setQuantity(line.quantity + 1, of: line)
    }

    /// − on a line.
    public func decrementButtonTapped(line: LineItemBody) async {
        guard canDecrement(line) else { return }
        await setQuantity(line.quantity - 1, of: line)
    }

    /// Remove on a line (swiped away in an app).
    public func removeButtonTapped(line: LineItemBody) async {
        let result = await change(.removeLine(productID: line.productID))
        if case .failure(let error) = result { alert = .changeFailed(message: error.message) }
    }

    /// Apply next to the promotion code field.
    public func applyPromoButtonTapped() async {
        let code = promoCode.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !code.isEmpty else { return }
        let result = await change(.applyPromotion(code: code))
        switch result {
        case .success:
            promoCode = ""
            promoError = nil
        case .failure(let error):
            promoError = error.message
        case nil:
            break
        }
    }

    /// Remove next to the applied code.
    public func removePromoButtonTapped() async {
        let result = await change(.removePromotion)
        switch result {
        case .success: promoError = nil
        case .failure(let error): promoError = error.message
        case nil: break
        }
    }

    /// A method chosen in the picker. A different method is a new payment attempt.
    public func paymentMethodSelected(_ kind: PaymentMethod.Kind) {
        guard kind != selectedKind, startNewAttempt() else { return }
        selectedKind = kind
    }

    /// A sandbox card chosen for a card payment. A different card is a new payment attempt.
    public func cardTokenSelected(_ token: CardToken) {
        guard token != selectedCardToken, startNewAttempt() else { return }
        selectedCardToken = token
    }

    /// Pay: shows the confirm step with the amount due. Does nothing while paying.
    public func payButtonTapped() {
        guard canPay, let option = selectedOption else { return }
        destination = .confirmPayment(amountDue: option.amountDue)
    }

    /// No, on the confirm step.
    public func cancelPaymentTapped() {
        guard case .confirmPayment = destination else { return }
        destination = nil
    }

    /// Yes, on the confirm step: pays. A second tap while paying does nothing.
    public func confirmPaymentTapped() async {
        guard case .confirmPayment = destination else { return }
        destination = nil
        guard let basket, let method = selectedMethod else { return }
        // A retry with the kept key sends the very request the key was first sent with.
        let fresh = CheckoutRequest(method: method, expectedTotal: basket.total)
        let request = attempt.key != nil ? sentRequest ?? fresh : fresh
        guard let key = attempt.payTapped(makeKey: makeKey) else { return }
        paymentFailure = nil
        sentRequest = request

        switch await pay(request, key: key) {
        case .success(let order):
            attempt.finished(.paid)
            sentRequest = nil
            show(basket.emptiedAfterPayment())
            destination = .receipt(order)
            onPaid(order)
        case .failure(let error):
            attempt.finished(CheckoutAttempt.Outcome(refusal: error))
            if attempt.key == nil { sentRequest = nil }
            paymentFailure = error
            if Self.basketMayHaveChanged(error) { await refresh() }
        }
    }

    /// The basket changed on another screen (the product counters): shows it. Its lines changed,
    /// so this is a new payment attempt, as for a change made here.
    public func basketChangedElsewhere(_ basket: BasketBody) {
        if !isPaying {
            attempt.basketChanged()
            paymentFailure = nil
            sentRequest = nil
        }
        state = .loaded(basket)
    }

    /// Done on the receipt.
    public func receiptDoneButtonTapped() {
        guard case .receipt = destination else { return }
        destination = nil
    }

    // MARK: Work

    private func load() async {
        state = .loading
        do throws(StoreClientError) {
            show(try await basketClient.basket())
        } catch {
            state = .failed(message: error.message)
        }
    }

    /// Shows the basket as the server now has it, keeping the one shown if that fails.
    private func refresh() async {
        if let current = try? await basketClient.basket() { show(current) }
    }

    private func show(_ basket: BasketBody) {
        state = .loaded(basket)
        onBasketChanged(basket)
    }

    private func setQuantity(_ quantity: Int, of line: LineItemBody) async {
        let result = await change(.setQuantity(quantity, productID: line.productID))
        if case .failure(let error) = result { alert = .changeFailed(message: error.message) }
    }

    /// Ends the current payment attempt because the basket or the method changes: the next Pay
    /// makes a new key, and the failure shown is cleared. Refused while paying or while another
    /// change is on its way.
    private func startNewAttempt() -> Bool {
        guard canEdit, attempt.basketChanged() else { return false }
        paymentFailure = nil
        sentRequest = nil
        return true
    }

    /// A change of the basket the shopper can make.
    private enum Change {
        case setQuantity(Int, productID: Int64)
        case removeLine(productID: Int64)
        case applyPromotion(code: String)
        case removePromotion
    }

    /// Sends one change and shows the basket it answers with; `nil` when the change was not allowed now.
    private func change(_ change: Change) async -> Result<BasketBody, StoreClientError>? {
        guard startNewAttempt() else { return nil }
        isUpdating = true
        defer { isUpdating = false }
        do throws(StoreClientError) {
            let basket: BasketBody
            switch change {
            case .setQuantity(let quantity, let productID):
                basket = try await basketClient.setQuantity(
                    SetQuantityRequest(quantity: quantity), productID: productID)
            case .removeLine(let productID):
                basket = try await basketClient.removeLine(productID: productID)
            case .applyPromotion(let code):
                basket = try await basketClient.applyPromotion(ApplyPromotionRequest(code: code))
            case .removePromotion:
                basket = try await basketClient.removePromotion()
            }
            show(basket)
            return .success(basket)
        } catch {
            return .failure(error)
        }
    }

    /// Sends the checkout, waiting and sending it again with the same key while the server says
    /// it is still in progress.
    private func pay(_ request: CheckoutRequest, key: IdempotencyKey) async -> Result<OrderBody, StoreClientError> {
        var retries = 0
        while true {
            do throws(StoreClientError) {
                return .success(try await checkoutClient.checkout(request, idempotencyKey: key))
            } catch {
                let inProgress = error == .idempotencyInProgress || error == .paymentInProgress
                guard inProgress, retries < Self.inProgressRetries else { return .failure(error) }
                retries += 1
                let stillInProgress = error
                do {
                    try await sleep(Self.inProgressDelay)
                } catch {
                    return .failure(stillInProgress)
                }
            }
        }
    }

    /// Whether a refused payment may have met a basket other than the one shown (a new price,
    /// stock gone, a code no longer valid), so the basket is read again to show it.
    private static func basketMayHaveChanged(_ error: StoreClientError) -> Bool {
        switch error {
        case .priceChanged, .outOfStock, .conflict, .invalid: true
        default: false
        }
    }
}
