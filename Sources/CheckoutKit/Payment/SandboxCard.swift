/// The cards of the sandbox provider's test mode (docs/BEHAVIOUR.md §5): the one list the provider
/// answers by, the storefront offers by name and the app models offer by token. The store never
/// asks for a card number: a card is only ever its provider token.
public enum SandboxCard: String, CaseIterable, Sendable {
    case visa = "tok_visa"
    case mastercard = "tok_mastercard"
    case chargeDeclined = "tok_chargeDeclined"
    case insufficientFunds = "tok_insufficientFunds"
    case timeout = "tok_timeout"
    case unavailable = "tok_unavailable"
    case refundTimeout = "tok_refundTimeout"
    case refundFail = "tok_refundFail"
    case slow = "tok_slow"

    /// The card as the provider's token.
    public var token: CardToken { CardToken(unchecked: rawValue) }

    /// What the card is and does in the sandbox, for people: "Visa — approved".
    public var name: String {
        switch self {
        case .visa: "Visa — approved"
        case .mastercard: "Mastercard — approved"
        case .chargeDeclined: "Declined by the bank"
        case .insufficientFunds: "Insufficient funds — declined"
        case .timeout: "Timeout — charged, answer lost"
        case .unavailable: "Provider unavailable — nothing charged"
        case .refundTimeout: "Visa — approved; a refund's answer is lost"
        case .refundFail: "Visa — approved; refunds refused"
        case .slow: "Visa — approved, answered after 1 second"
        }
    }
}
