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
