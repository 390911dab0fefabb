import CheckoutKit
import Foundation

/// Where a promotion code stands, for the list.
public enum AdminPromotionStatus: String, CaseIterable, Hashable, Sendable {
    case active
    /// Its window has not started.
    case scheduled
    case expired
    /// Its usage limit is reached.
    case usedUp = "used_up"
    /// Turned off with **Disable**.
    case disabled

    /// A code's status at `now`: disabled first, then its window and usage limit.
    public init(_ promotion: Promotion, disabled: Bool, at now: Date) {
        guard !disabled else {
            self = .disabled
            return
        }
        switch promotion.availability(at: now) {
        case .available: self = .active
        case .notStarted: self = .scheduled
        case .expired: self = .expired
        case .usedUp: self = .usedUp
        case .disabled: self = .disabled
        }
    }

    /// `Active`, `Scheduled`, `Expired`, `Used up`, `Disabled`.
    public var label: String {
        switch self {
        case .active: "Active"
        case .scheduled: "Scheduled"
        case .expired: "Expired"
        case .usedUp: "Used up"
        case .disabled: "Disabled"
        }
    }

    /// Whether **Disable** is offered: for a code that works now or will.
    public var mayDisable: Bool { self == .active || self == .scheduled }
}

/// Every promotion code at `/admin/promotions`, with its use count and **Disable**.
public struct AdminPromotionsPage: Hashable, Sendable {
    /// One code in the table.
    public struct Row: Hashable, Sendable {
        public var promotion: Promotion
        public var status: AdminPromotionStatus

        public init(promotion: Promotion, status: AdminPromotionStatus) {
            self.promotion = promotion
            self.status = status
        }
    }

    public var promotions: [Row]

    public init(promotions: [Row]) {
        self.promotions = promotions
    }
}

/// The **New promotion** form's fields, as typed, with their problems.
public struct AdminPromotionForm: Hashable, Sendable {
    /// A field of the form.
    public enum Field: String, CaseIterable, Hashable, Sendable {
        case code
        case kind
        case value
        case minimumSubtotal = "minimum_subtotal"
        case starts
        case ends
        case usageLimit = "usage_limit"
    }

    /// What the code takes off: the `kind` field's values.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// A whole percentage of the subtotal.
        case percent
        /// A fixed amount.
        case amount

        /// `Percent off`, `Amount off`.
        public var label: String {
            switch self {
            case .percent: "Percent off"
            case .amount: "Amount off"
            }
        }
    }

    public var code: String
    public var kind: Kind
    /// A whole percentage (`10`) or an amount (`5.00`), as typed.
    public var value: String
    /// An amount as typed; empty for none.
    public var minimumSubtotal: String
    /// `datetime-local` values as typed, in the context's time zone; empty for no bound.
    public var starts: String
    public var ends: String
    /// A whole number as typed; empty for no limit.
    public var usageLimit: String
    public var errors: [Field: String]

    public init(
        code: String = "", kind: Kind = .percent, value: String = "", minimumSubtotal: String = "",
        starts: String = "", ends: String = "", usageLimit: String = "", errors: [Field: String] = [:]
    ) {
        self.code = code
        self.kind = kind
        self.value = value
        self.minimumSubtotal = minimumSubtotal
        self.starts = starts
        self.ends = ends
        self.usageLimit = usageLimit
        self.errors = errors
    }
}

/// The **New promotion** form at `/admin/promotions/new`.
public struct AdminNewPromotionPage: Hashable, Sendable {
    public var form: AdminPromotionForm
    /// The shop's currency, which amounts are typed in.
    public var currency: Currency

    public init(form: AdminPromotionForm = AdminPromotionForm(), currency: Currency) {
        self.form = form
        self.currency = currency
    }
}
