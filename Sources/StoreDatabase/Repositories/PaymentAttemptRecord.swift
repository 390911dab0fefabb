import CheckoutKit
import Foundation
import StoreSQL

/// Where a payment attempt stands.
public enum PaymentAttemptState: String, Hashable, Sendable {
    /// Stock and promotion are reserved; the provider's answer is not recorded yet.
    case pending
    /// Paid: the order exists.
    case succeeded
    /// A definite failure (declined): the reservation was released.
    case failed
}

/// An HTTP response kept for replaying to a retry with the same idempotency key.
public struct StoredResponse: Hashable, Sendable {
    public let status: Int
    public let body: String

    public init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}

/// A payment attempt to record before the provider is called.
public struct NewPaymentAttempt: Sendable {
    public let id: AttemptID
    public let shopperID: ShopperID
    public let key: IdempotencyKey
    /// The canonical form of the request, to recognise a retry of the same request.
    public let fingerprint: String
    public let quote: CheckoutQuote
    /// The version of the basket the quote was priced from: the attempt is recorded only while the
    /// basket is still that version, so it pays for exactly the lines the shopper confirmed.
    public let basketVersion: Int64
    /// Until when this request owns the attempt; a retry before then gets "in progress".
    public let leaseExpiresAt: Date
    /// The provider call this request is about to make, marked as in flight with the attempt.
    public let call: ProviderCallID

    public init(
        id: AttemptID, shopperID: ShopperID, key: IdempotencyKey, fingerprint: String, quote: CheckoutQuote,
        basketVersion: Int64, leaseExpiresAt: Date, call: ProviderCallID = .random()
    ) {
        self.id = id
        self.shopperID = shopperID
        self.key = key
        self.fingerprint = fingerprint
        self.quote = quote
        self.basketVersion = basketVersion
        self.leaseExpiresAt = leaseExpiresAt
        self.call = call
    }
}

/// A payment attempt as stored: the quote it reserved, its state, and its final response.
public struct PaymentAttemptRecord: Hashable, Sendable {
    public let id: AttemptID
    public let shopperID: ShopperID
    public let key: String
    public let fingerprint: String
    public let state: PaymentAttemptState
    public let lines: [OrderLine]
    public let subtotal: Money
    public let discount: Money
    public let shipping: Money
    public let fee: Money
    /// The amount asked of the provider: subtotal − discount + shipping + fee.
    public let amount: Money
    public let method: PaymentMethod.Kind
    /// The provider's card token, for asking the provider again with the same key.
    public let paymentToken: String?
    public let promotionCode: PromotionCode?
    public let leaseExpiresAt: Date
    /// The presence key of the server working on it (``ServerPresence``), if it was taken with one:
    /// once that server's presence is gone, another may take the attempt over before the lease ends.
    public let holder: Int64?
    /// Whether an earlier provider call for this attempt may have charged: its answer was lost, or
    /// it was still in flight when another took the attempt over. Never cleared by a later call.
    public let answerLost: Bool
    /// The provider call in flight (or cut off by a crash), if any.
    public let callInFlight: ProviderCallID?
    public let response: StoredResponse?
    public let orderID: OrderID?
    /// Why the provider declined it, for a failed attempt (`nil` for one recorded before reasons
    /// were kept apart).
    public let declineReason: DeclineReason?
    public let createdAt: Date
    /// The version of the basket the attempt was priced from; −1 once a login carried the attempt
    /// to another shopper's basket, where that version means nothing.
    public let basketVersion: Int64

    /// Whether a provider call for this attempt may have charged: one whose answer was lost, or one
    /// still in flight (or cut off by a crash). `false` only when no call can have reached the
    /// provider's books.
    public var mayHaveCharged: Bool { answerLost || callInFlight != nil }

    /// The paid order this attempt becomes, with the prices as reserved (and charged).
    public func order(id: OrderID, cardBrand: String?, createdAt: Date) -> Order {
        Order(
            id: id, status: .paid, lines: lines, subtotal: subtotal, discount: discount, shipping: shipping, fee: fee,
            total: amount, paymentMethod: method, cardBrand: cardBrand, promotionCode: promotionCode,
            createdAt: createdAt)
    }

    /// This attempt in its final state.
    func finished(
        _ state: PaymentAttemptState, response: StoredResponse, orderID: OrderID?, declineReason: DeclineReason? = nil
    ) -> PaymentAttemptRecord {
        PaymentAttemptRecord(
            id: id, shopperID: shopperID, key: key, fingerprint: fingerprint, state: state, lines: lines,
            subtotal: subtotal, discount: discount, shipping: shipping, fee: fee, amount: amount, method: method,
            paymentToken: paymentToken, promotionCode: promotionCode, leaseExpiresAt: leaseExpiresAt, holder: holder,
            answerLost: answerLost, callInFlight: nil, response: response, orderID: orderID,
            declineReason: declineReason, createdAt: createdAt, basketVersion: basketVersion)
    }

    static let columns: SQLQuery = """
        id, shopper_id, idempotency_key, request_fingerprint, state, currency, subtotal_minor, discount_minor,
        shipping_minor, fee_minor, amount_minor, payment_method, payment_token, promotion_code, lease_expires_at, holder,
        may_have_charged, call_id, response_status, response_body, order_id, decline_reason, created_at,
        basket_version
        """

    static func read(_ row: SQLRow, lines: [OrderLine]) throws -> PaymentAttemptRecord {
        guard let state = PaymentAttemptState(rawValue: try row.decode("state")) else {
            throw DatabaseError.decoding(column: "state", expected: "pending, succeeded or failed")
        }
        guard let method = PaymentMethod.Kind(rawValue: try row.decode("payment_method")) else {
            throw DatabaseError.decoding(column: "payment_method", expected: "a payment method")
        }
        let status = try row.decode("response_status", as: Int?.self)
        let body = try row.decode("response_body", as: String?.self)
        return PaymentAttemptRecord(
            id: AttemptID(rawValue: try row.decode("id")), shopperID: ShopperID(rawValue: try row.decode("shopper_id")),
            key: try row.decode("idempotency_key"), fingerprint: try row.decode("request_fingerprint"), state: state,
            lines: lines, subtotal: try row.money("subtotal_minor"), discount: try row.money("discount_minor"),
            shipping: try row.money("shipping_minor"), fee: try row.money("fee_minor"),
            amount: try row.money("amount_minor"), method: method, paymentToken: try row.decode("payment_token"),
            promotionCode: try row.decode("promotion_code", as: String?.self).flatMap(PromotionCode.init(rawValue:)),
            leaseExpiresAt: try row.date("lease_expires_at"), holder: try row.decode("holder", as: Int64?.self),
            answerLost: try row.decode("may_have_charged", as: Bool.self),
            callInFlight: try row.decode("call_id", as: String?.self).map(ProviderCallID.init(rawValue:)),
            response: status.flatMap { status in body.map { StoredResponse(status: status, body: $0) } },
            orderID: try row.decode("order_id", as: String?.self).map(OrderID.init(rawValue:)),
            declineReason: try row.decode("decline_reason", as: String?.self).map(DeclineReason.init(rawValue:)),
            createdAt: try row.date("created_at"), basketVersion: try row.decode("basket_version"))
    }
}

extension PaymentAttemptRecord {
    /// The record of `attempt` as it was just inserted by `holder`: pending, with its call about to
    /// be made.
    init(_ attempt: NewPaymentAttempt, holder: Int64?, now: Date) throws(MoneyError) {
        let quote = attempt.quote
        var lines: [OrderLine] = []
        for line in quote.lines {
            lines.append(
                OrderLine(
                    productID: line.productID, title: line.title, unitPrice: line.unitPrice,
                    quantity: line.quantity.value, lineTotal: try line.total()))
        }
        let token: String? =
            if case .card(let token) = quote.method { token.rawValue } else { nil }
        self.init(
            id: attempt.id, shopperID: attempt.shopperID, key: attempt.key.rawValue, fingerprint: attempt.fingerprint,
            state: .pending, lines: lines, subtotal: quote.breakdown.subtotal, discount: quote.breakdown.discount,
            shipping: quote.breakdown.shipping, fee: quote.payment.fee, amount: quote.amountDue,
            method: quote.method.kind, paymentToken: token, promotionCode: PaymentRepository.promotionUsed(by: quote),
            leaseExpiresAt: Date(unixMilliseconds: attempt.leaseExpiresAt.unixMilliseconds), holder: holder,
            answerLost: false,
            callInFlight: attempt.call, response: nil, orderID: nil, declineReason: nil,
            createdAt: Date(unixMilliseconds: now.unixMilliseconds), basketVersion: attempt.basketVersion)
    }
}

extension OrderLine {
    /// A line stored as `product_id, title, unit_price_minor, quantity, line_total_minor` in `currency`.
    static func read(_ row: SQLRow, currency: Currency) throws -> OrderLine {
        OrderLine(
            productID: ProductID(try row.decode("product_id", as: Int64.self)), title: try row.decode("title"),
            unitPrice: Money(minorUnits: try row.decode("unit_price_minor"), currency: currency),
            quantity: try row.decode("quantity"),
            lineTotal: Money(minorUnits: try row.decode("line_total_minor"), currency: currency))
    }
}
