/// One step of an order along its way (docs/BEHAVIOUR.md §13.8): what a member of staff marks it
/// as. Shipping always carries its tracking number; cancelling is not a step, because it is a
/// refund and a restock as well (§14).
public enum FulfilmentStep: Hashable, Sendable {
    /// **Mark packed**.
    case pack
    /// **Mark shipped**, with the parcel's tracking number.
    case ship(TrackingNumber)
    /// **Mark delivered**.
    case deliver

    /// The state the step moves an order to.
    public var target: FulfilmentStatus {
        switch self {
        case .pack: .packed
        case .ship: .shipped
        case .deliver: .delivered
        }
    }

    /// The tracking number the step records, for shipping.
    public var trackingNumber: TrackingNumber? {
        if case .ship(let number) = self { return number }
        return nil
    }
}
