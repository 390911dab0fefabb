import CheckoutKit

/// A payment provider, as the store sees it: one call, idempotent on the key it is given.
///
/// Calling ``charge(_:)`` again with a key the provider has seen returns the first outcome and
/// never charges a second time — that is what lets the store retry after a lost answer.
public protocol PaymentProvider: Sendable {
    /// Charges `request.amount` to `request.method`, at most once per `request.key`.
    ///
    /// - Returns: the definite outcome: approved (with the provider's charge id and, for cards, the
    ///   brand) or declined (with the provider's reason).
    /// - Throws: ``ProviderError`` when the outcome is not known; retrying with the same key is safe.
    func charge(_ request: ChargeRequest) async throws(ProviderError) -> ChargeOutcome
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
