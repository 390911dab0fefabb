/// Something worth counting, with no personal data: only closed sets of values and flags.
///
/// Typed, so that an event cannot carry an email address, a name, a token or an amount tied to a
/// person by accident.
public enum AnalyticsEvent: Hashable, Sendable {
    /// A payment reached a definite outcome.
    case paymentFinished(method: PaymentMethod.Kind, succeeded: Bool)
    /// A refund reached a definite outcome: what kind, why, whether it gave back the whole order.
    case refundFinished(kind: RefundKind, reason: RefundReasonKind, full: Bool, succeeded: Bool)

    /// The event's name, e.g. `payment_finished`.
    public var name: String {
        switch self {
        case .paymentFinished: "payment_finished"
        case .refundFinished: "refund_finished"
        }
    }

    /// The event's properties as text.
    public var properties: [String: String] {
        switch self {
        case .paymentFinished(let method, let succeeded):
            ["method": method.rawValue, "succeeded": succeeded ? "true" : "false"]
        case .refundFinished(let kind, let reason, let full, let succeeded):
            [
                "kind": kind.rawValue, "reason": reason.rawValue, "full": full ? "true" : "false",
                "succeeded": succeeded ? "true" : "false",
            ]
        }
    }
}
