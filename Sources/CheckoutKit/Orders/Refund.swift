import Foundation

/// A refund's identifier, and the idempotency key the provider is given for it: opaque and not
/// guessable (`ref_` and 26 base-32 characters from 128 random bits).
public struct RefundID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The identifier in `text` if it has the form of one, else `nil`.
    public init?(parsing text: String) {
        guard OpaqueIdentifier.isWellFormed(text, prefix: "ref_") else { return nil }
        rawValue = text
    }

    /// A fresh identifier, time-ordered, from the system's cryptographic random source.
    public static func random() -> RefundID {
        RefundID(rawValue: OpaqueIdentifier.makeOrdered(prefix: "ref_"))
    }

    public var description: String { rawValue }
}

/// Where one refund stands (docs/BEHAVIOUR.md §14): `pending` from the moment it is recorded,
/// before the provider is asked, until the provider's answer is recorded — `succeeded` (the money
/// went back, the units were restocked) or `failed` (the provider refused it: its amount is
/// refundable again and nothing was restocked). No refund ever leaves a final state.
public enum RefundState: String, CaseIterable, Hashable, Sendable {
    case pending
    case succeeded
    case failed

    /// How people read it: `Pending`, `Refunded`, `Failed`.
    public var label: String {
        switch self {
        case .pending: "Pending"
        case .succeeded: "Refunded"
        case .failed: "Failed"
        }
    }
}

/// What a refund gives back: chosen units of lines (and maybe the shipping), a goodwill amount,
/// or the whole order as it is cancelled.
public enum RefundKind: String, CaseIterable, Hashable, Sendable {
    case lines
    case goodwill
    case cancellation
}

/// Why money went back: a closed set, so reports can count them, with a note for the rest.
public enum RefundReasonKind: String, CaseIterable, Hashable, Sendable {
    case returned
    case damaged
    case wrongItem = "wrong_item"
    case notDelivered = "not_delivered"
    case goodwill
    case cancelled
    case other

    /// How a merchant reads it.
    public var label: String {
        switch self {
        case .returned: "Returned by the customer"
        case .damaged: "Arrived damaged"
        case .wrongItem: "Wrong item sent"
        case .notDelivered: "Not delivered"
        case .goodwill: "Goodwill"
        case .cancelled: "Order cancelled"
        case .other: "Other"
        }
    }
}

/// A refund's reason: its kind, and a note of at most ``RefundReason/maximumNoteLength``
/// characters (blank is none).
public struct RefundReason: Hashable, Sendable {
    public static let maximumNoteLength = 500

    public let kind: RefundReasonKind
    public let note: String?

    /// The reason, or `nil` when the note is too long or holds a card number.
    public init?(kind: RefundReasonKind, note: String?) {
        let trimmed = note?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard trimmed.count <= Self.maximumNoteLength, !CardNumberDetector.containsCardNumber(trimmed) else {
            return nil
        }
        self.kind = kind
        self.note = trimmed.isEmpty ? nil : trimmed
    }
}

/// One line of a refund: `quantity` units of the order's line at `position`, what they give back,
/// and whether they go back into stock.
public struct RefundLine: Hashable, Sendable {
    /// The line's place in the order (0 for the first).
    public let position: Int
    public let productID: ProductID
    public let title: String
    public let quantity: Int
    public let amount: Money
    public let restock: Bool

    public init(position: Int, productID: ProductID, title: String, quantity: Int, amount: Money, restock: Bool) {
        self.position = position
        self.productID = productID
        self.title = title
        self.quantity = quantity
        self.amount = amount
        self.restock = restock
    }
}

/// A refund as recorded.
public struct Refund: Hashable, Sendable, Identifiable {
    public let id: RefundID
    public let orderID: OrderID
    public let kind: RefundKind
    public var state: RefundState
    /// What goes back to the customer: the lines', the shipping's and the fee's amounts together
    /// (for a cancellation, what remained of the order).
    public let amount: Money
    public let lines: [RefundLine]
    public let shipping: Money
    public let fee: Money
    public let reason: RefundReason
    /// Who asked for it: a member of staff's email, or `command line`.
    public let requestedBy: String
    public let createdAt: Date
    /// When its outcome was recorded.
    public var settledAt: Date?
    /// The provider's reason, when it refused.
    public var failureReason: String?

    public init(
        id: RefundID, orderID: OrderID, kind: RefundKind, state: RefundState, amount: Money, lines: [RefundLine],
        shipping: Money, fee: Money, reason: RefundReason, requestedBy: String, createdAt: Date, settledAt: Date?,
        failureReason: String?
    ) {
        self.id = id
        self.orderID = orderID
        self.kind = kind
        self.state = state
        self.amount = amount
        self.lines = lines
        self.shipping = shipping
        self.fee = fee
        self.reason = reason
        self.requestedBy = requestedBy
        self.createdAt = createdAt
        self.settledAt = settledAt
        self.failureReason = failureReason
    }
}

extension PaymentStatus {
    /// The status of a payment of `charged` of which `refunded` went back in succeeded refunds.
    public static func of(charged: Money, refunded: Money) -> PaymentStatus {
        if refunded.minorUnits <= 0 { return .paid }
        return refunded.minorUnits >= charged.minorUnits ? .refunded : .partiallyRefunded
    }
}
