/// Where an order's payment stands (docs/BEHAVIOUR.md §13.8, §14): `paid`, then
/// `partially_refunded` and `refunded` as refunds succeed. It sits beside the fulfilment status
/// and is derived from what the order's payment went through, never set by hand.
public enum PaymentStatus: String, CaseIterable, Hashable, Sendable {
    case paid
    case partiallyRefunded = "partially_refunded"
    case refunded

    /// How a merchant reads it: `Paid`, `Partially refunded`, `Refunded`.
    public var label: String {
        switch self {
        case .paid: "Paid"
        case .partiallyRefunded: "Partially refunded"
        case .refunded: "Refunded"
        }
    }
}
