import Foundation

/// Why a product's stock changed: one line of its ledger (docs/BEHAVIOUR.md §13.6).
public enum StockReason: String, CaseIterable, Hashable, Sendable {
    /// Units arrived from a supplier.
    case received
    /// A count on the shelf set the stock (the change is the difference).
    case counted
    /// Units broke or spoiled.
    case damaged
    /// Units came back from a customer.
    case returned
    /// Anything else; the note says what.
    case other
    /// Units taken for a payment the moment it began (the order, once paid, points at it).
    case sale
    /// Units given back by a payment that did not go through.
    case saleReleased = "sale_released"

    /// The reasons a member of staff may give; the others the store writes itself.
    public static let staffReasons: [StockReason] = [.received, .counted, .damaged, .returned, .other]

    /// How a merchant reads it: `Received`, `Sale`, `Payment not completed`.
    public var label: String {
        switch self {
        case .received: "Received"
        case .counted: "Counted"
        case .damaged: "Damaged"
        case .returned: "Returned"
        case .other: "Other"
        case .sale: "Sale"
        case .saleReleased: "Payment not completed"
        }
    }
}

/// A change of stock a member of staff asks for: a signed whole number of units and why.
public struct StockAdjustment: Hashable, Sendable {
    public let change: Int
    public let reason: StockReason
    public let note: String?

    /// The largest change one adjustment may make, either way.
    public static let maximumChange = 1_000_000
    /// The longest note.
    public static let maximumNoteLength = 500

    /// Checks a requested adjustment: a non-zero change of at most a million units either way, a
    /// reason a person may give, and a one-line note of at most 500 characters (blank is none).
    public init(change: Int, reason: StockReason, note: String?) throws(StockAdjustmentError) {
        guard change != 0, abs(change) <= Self.maximumChange else { throw .invalidChange }
        guard StockReason.staffReasons.contains(reason) else { throw .invalidReason }
        let note = note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let note, !note.isEmpty {
            guard note.count <= Self.maximumNoteLength,
                !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .invalidNote }
            guard !CardNumberDetector.containsCardNumber(note) else { throw .cardNumberInNote }
            self.note = note
        } else {
            self.note = nil
        }
        self.change = change
        self.reason = reason
    }

    /// Reads a change typed by a person: `12`, `+12`, `-2` or `−2` (a minus sign), nothing else.
    public static func change(parsing text: String) -> Int? {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var sign = 1
        if let first = digits.first, first == "+" || first == "-" || first == "\u{2212}" {
            sign = first == "+" ? 1 : -1
            digits = digits.dropFirst()
        }
        guard let value = Int64(positiveDecimal: digits), value <= Int64(maximumChange) else { return nil }
        return sign * Int(value)
    }
}

/// Why a stock adjustment was refused before reaching the stock.
public enum StockAdjustmentError: Error, Hashable, Sendable {
    /// Zero, or more than a million units either way.
    case invalidChange
    /// Not one of ``StockReason/staffReasons``.
    case invalidReason
    /// Longer than 500 characters, or with control characters.
    case invalidNote
    /// The note holds what looks like a card number.
    case cardNumberInNote

    public var message: String {
        switch self {
        case .invalidChange: "A change is a whole number of units, not zero, like 12 or -2."
        case .invalidReason: "A reason is received, counted, damaged, returned or other."
        case .invalidNote: "A note is one line of at most 500 characters."
        case .cardNumberInNote: "The note holds what looks like a card number; the shop never stores card numbers."
        }
    }
}
