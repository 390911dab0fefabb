import CheckoutKit

/// A payment provider, as the store sees it: a charge, idempotent on the key it is given, and a
/// lookup of what became of a key.
///
/// Calling ``charge(_:)`` again with a key the provider has seen returns the first outcome and
/// never charges a second time — that is what lets a shopper's retry settle a lost answer. The
/// store's own reconciliation never calls ``charge(_:)``: it asks ``status(ofKey:)``.
public protocol PaymentProvider: Sendable {
    /// Charges `request.amount` to `request.method`, at most once per `request.key`.
    ///
    /// - Returns: the definite outcome: approved (with the provider's charge id and, for cards, the
    ///   brand) or declined (with the provider's reason).
    /// - Throws: ``ProviderError`` when the outcome is not known; retrying with the same key is safe.
    func charge(_ request: ChargeRequest) async throws(ProviderError) -> ChargeOutcome

    /// What became of `key`: charged (with the amount), declined, or never seen.
    ///
    /// "Never seen" is final: the provider closes the key as it answers, so a call with that key
    /// still on its way (from a stalled server) is refused rather than charged — the store may then
    /// give the attempt up and its stock back.
    ///
    /// - Throws: ``ProviderError/unavailable`` when the provider cannot answer now.
    func status(ofKey key: String) async throws(ProviderError) -> ChargeStatus

    /// Gives back `request.amount` of the payment charged with `request.chargeKey`, at most once per
    /// `request.key`.
    ///
    /// Calling it again with a key the provider has seen returns the first outcome and never refunds
    /// a second time. The provider refuses what would take its refunds of one charge past the amount
    /// charged. The store settles a lost answer with ``refundStatus(ofKey:)``, never by calling this
    /// again.
    ///
    /// - Returns: the definite outcome: refunded (with the provider's refund id) or refused (why).
    /// - Throws: ``ProviderError`` when the outcome is not known.
    func refund(_ request: RefundRequest) async throws(ProviderError) -> RefundOutcome

    /// What became of the refund key `key`: refunded (with the amount), refused, or never seen.
    ///
    /// As for charges, "never seen" is final: the key is closed as the provider answers, so a
    /// refund with that key still on its way is refused rather than made.
    ///
    /// - Throws: ``ProviderError/unavailable`` when the provider cannot answer now.
    func refundStatus(ofKey key: String) async throws(ProviderError) -> RefundStatus
}

/// One refund the store asks for.
public struct RefundRequest: Hashable, Sendable {
    /// The idempotency key: the store's refund id, unique across all orders.
    public let key: String
    /// The key the payment being refunded was charged with.
    public let chargeKey: String
    public let amount: Money

    public init(key: String, chargeKey: String, amount: Money) {
        self.key = key
        self.chargeKey = chargeKey
        self.amount = amount
    }
}

/// A definite answer to a refund.
public enum RefundOutcome: Hashable, Sendable {
    case refunded(refundID: String)
    case refused(RefundRefusal)
}

/// What the provider's books say about a refund key.
public enum RefundStatus: Hashable, Sendable {
    /// Refunded: the provider's refund id and the amount given back.
    case refunded(refundID: String, amount: Money)
    /// Refused, with the provider's reason; nothing was given back.
    case refused(RefundRefusal)
    /// No refund with this key reached the provider, and none will now: nothing was given back.
    case neverSeen
}

/// Why a provider refused a refund, in its own words (`refund_refused`, `exceeds_charge`).
public struct RefundRefusal: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The provider would not refund this payment.
    public static let refused = RefundRefusal(rawValue: "refund_refused")
    /// The refund would take the charge's refunds past the amount charged.
    public static let exceedsCharge = RefundRefusal(rawValue: "exceeds_charge")
    /// The provider holds no approved charge under the given key.
    public static let noCharge = RefundRefusal(rawValue: "no_charge")
}

/// What the provider's books say about a key.
public enum ChargeStatus: Hashable, Sendable {
    /// Charged: the provider's charge id, the amount charged and, for cards, the brand.
    case charged(chargeID: String, amount: Money, cardBrand: String?)
    /// Declined, with the provider's reason; nothing was charged.
    case declined(DeclineReason)
    /// No call with this key reached the provider, and none will now: nothing was charged.
    case neverSeen
}

/// One charge the store asks for.
public struct ChargeRequest: Hashable, Sendable {
    /// The idempotency key: the store's payment attempt id, unique across all shoppers.
    public let key: String
    public let amount: Money
    public let method: PaymentMethod

    public init(key: String, amount: Money, method: PaymentMethod) {
        self.key = key
        self.amount = amount
        self.method = method
    }
}

/// A definite answer from the provider.
public enum ChargeOutcome: Hashable, Sendable {
    case approved(chargeID: String, cardBrand: String?)
    case declined(DeclineReason)
}

/// Why the provider's answer is not known.
public enum ProviderError: Error, Hashable, Sendable {
    /// The provider refused the call before processing it (down, overloaded).
    case unavailable
    /// The call was sent but no answer came back: the charge may or may not have happened.
    case timedOut
}
