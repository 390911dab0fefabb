/// The client-side rules that keep a shopper from ever being charged twice (docs/BEHAVIOUR.md §5).
///
/// One value of this type follows one basket through paying:
/// - each attempt has one idempotency key, made when the shopper first taps Pay;
/// - a second tap while paying does nothing;
/// - after `unavailable` (a timeout, the provider down, a dropped connection) the retry reuses the
///   key, so the server can recognise it;
/// - a confirmed answer — paid, declined or any other definite refusal — ends the attempt: the
///   next try gets a new key (a declined key would only ever replay the decline); a refusal that
///   is no payment outcome at all (an expired session, a rejected key) ends it too;
/// - any change to the basket (lines, quantities, promotion, method) starts a new attempt with a
///   new key and clears a previous failure.
public struct CheckoutAttempt: Hashable, Sendable {
    /// Where the attempt stands.
    public enum Phase: Hashable, Sendable {
        /// Nothing sent yet, the basket changed since the last answer, or the last request was
        /// ``Outcome/refused``.
        case ready
        /// A payment request is on its way; edits and further taps are ignored.
        case paying
        /// The last try failed; ``CheckoutAttempt/key`` is kept only if the failure is retryable.
        case failed(CheckoutError)
        /// The payment went through; the attempt is over.
        case paid
    }

    /// How a payment request ended, as the client saw it.
    public enum Outcome: Hashable, Sendable {
        case paid
        case failed(CheckoutError)
        /// A definite answer that is not a ``CheckoutError`` — the session expired, the key or the
        /// request was refused, the server gave the attempt up. Nothing was charged with this key
        /// and it will never charge: the attempt ends and the next tap makes a new key.
        case refused
    }

    public private(set) var phase: Phase = .ready
    /// The key the next request will carry, when one is already chosen (a retry after
    /// `unavailable`); `nil` means the next tap makes a fresh key.
    public private(set) var key: IdempotencyKey?

    public init() {}

    public var isPaying: Bool { phase == .paying }

    /// The failure to show, if the last try failed.
    public var failure: CheckoutError? {
        if case .failed(let error) = phase { return error }
        return nil
    }

    /// The shopper tapped Pay: returns the key to send, or `nil` when a payment is already under
    /// way (the tap does nothing).
    public mutating func payTapped(makeKey: () -> IdempotencyKey) -> IdempotencyKey? {
        guard phase != .paying else { return nil }
        let key = self.key ?? makeKey()
        self.key = key
        phase = .paying
        return key
    }

    /// The request ended with `outcome`. Ignored unless a payment was under way.
    public mutating func finished(_ outcome: Outcome) {
        guard phase == .paying else { return }
        switch outcome {
        case .paid:
            phase = .paid
            key = nil
        case .failed(let error):
            phase = .failed(error)
            if !error.isRetryableWithSameKey { key = nil }
        case .refused:
            phase = .ready
            key = nil
        }
    }

    /// The basket changed: lines, quantities, promotion or method. Starts a new attempt (a new key
    /// at the next tap) and clears a previous failure. Ignored while paying — the app disables
    /// every edit then — and returns whether the change was accepted.
    @discardableResult
    public mutating func basketChanged() -> Bool {
        guard phase != .paying else { return false }
        phase = .ready
        key = nil
        return true
    }
}
