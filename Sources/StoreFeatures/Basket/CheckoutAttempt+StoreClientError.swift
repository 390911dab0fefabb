import CheckoutKit
import StoreClient

extension CheckoutAttempt.Outcome {
    /// How a checkout answered with `error` ends the attempt (docs/BEHAVIOUR.md §5).
    ///
    /// When nobody knows whether the payment went through (a timeout, `unavailable`, an answer that
    /// could not be read, a payment still in progress) the attempt keeps its key for the retry. A
    /// decline is a confirmed result. Every other answer is a definite refusal: nothing was charged
    /// with the key, and the next try makes a new one.
    init(refusal error: StoreClientError) {
        if error.isOutcomeUnknown {
            self = .failed(.unavailable)
        } else if case .declined(let reason, _) = error {
            self = .failed(.declined(reason))
        } else {
            self = .refused
        }
    }
}
