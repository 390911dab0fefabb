import Foundation

/// Where an order is on its way to the customer (docs/BEHAVIOUR.md §13.8):
/// `unfulfilled → packed → shipped → delivered`, and `cancelled` from either state before shipping.
/// No state is ever returned to, so an action that names the state it expects can never be applied
/// twice.
public enum FulfilmentStatus: String, CaseIterable, Hashable, Sendable {
    case unfulfilled
    case packed
    case shipped
    case delivered
    case cancelled

    /// The states an order may move to from this one.
    public var next: [FulfilmentStatus] {
        switch self {
        case .unfulfilled: [.packed, .cancelled]
        case .packed: [.shipped, .cancelled]
        case .shipped: [.delivered]
        case .delivered, .cancelled: []
        }
    }

    /// Whether an order may move from this state to `target`.
    public func mayMove(to target: FulfilmentStatus) -> Bool {
        next.contains(target)
    }

    /// How a merchant reads it: `Unfulfilled`, `Packed`…
    public var label: String {
        switch self {
        case .unfulfilled: "Unfulfilled"
        case .packed: "Packed"
        case .shipped: "Shipped"
        case .delivered: "Delivered"
        case .cancelled: "Cancelled"
        }
    }
}

/// A parcel's tracking number as a carrier prints it: 1–64 letters, digits, spaces and hyphens.
public struct TrackingNumber: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init?(rawValue text: String) {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(value.count),
            value.unicodeScalars.allSatisfy({ scalar in
                scalar.isASCII
                    && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                        || scalar == " " || scalar == "-")
            }),
            !CardNumberDetector.containsCardNumber(value)
        else { return nil }
        rawValue = value
    }
}
