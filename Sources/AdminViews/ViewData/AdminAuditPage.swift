import CheckoutKit
import Foundation

/// The audit log at `/admin/audit`, newest first, a page at a time.
public struct AdminAuditPage: Hashable, Sendable {
    /// One line of the log.
    public struct Entry: Hashable, Sendable, Identifiable {
        public var id: Int64
        public var at: Date
        /// Who: an email, `command line`, `demo data`, `unknown account`.
        public var actor: String
        /// The action's code: `product.changed`, `staff.signed_in`…
        public var action: String
        /// What it was done to: `product:12`, `order:ord_…`.
        public var subject: String
        /// Short JSON texts of the values before and after, when the action has them.
        public var before: String?
        public var after: String?

        public init(
            id: Int64, at: Date, actor: String, action: String, subject: String, before: String? = nil,
            after: String? = nil
        ) {
            self.id = id
            self.at = at
            self.actor = actor
            self.action = action
            self.subject = subject
            self.before = before
            self.after = after
        }
    }

    /// Whose entries the viewer sees.
    public enum Scope: Hashable, Sendable {
        /// Everyone's (an owner).
        case everyone
        /// Only their own (any other role).
        case own
    }

    public var entries: [Entry]
    public var scope: Scope
    /// Whether this is a page of older entries (the query had `before`): offers the newest again.
    public var isOlderPage: Bool
    /// Whether entries older than the last one shown exist: offers **Older entries**.
    public var hasOlder: Bool

    public init(entries: [Entry], scope: Scope, isOlderPage: Bool = false, hasOlder: Bool) {
        self.entries = entries
        self.scope = scope
        self.isOlderPage = isOlderPage
        self.hasOlder = hasOlder
    }

    /// An action's code in words: `product.changed` → `Changed a product`. A code this version
    /// does not know is written as it is.
    public static func describe(action code: String) -> String {
        AuditAction(rawValue: code)?.words ?? code
    }
}

extension AuditAction {
    /// What the back office's audit log says a line records.
    public var words: String {
        switch self {
        case .staffSignedIn: "Signed in"
        case .staffSignInFailed: "Failed to sign in"
        case .staffAdded: "Added a member of staff"
        case .staffRemoved: "Removed a member of staff"
        case .productCreated: "Created a product"
        case .productChanged: "Changed a product"
        case .productImageChanged: "Changed a product's image"
        case .stockAdjusted: "Adjusted stock"
        case .catalogImported: "Imported the catalog"
        case .promotionCreated: "Created a promotion"
        case .promotionDisabled: "Disabled a promotion"
        case .orderFulfilment: "Changed an order's fulfilment status"
        case .orderCancelled: "Cancelled an order"
        case .orderRefundRequested: "Asked for a refund"
        case .orderRefunded: "Refunded"
        case .orderRefundFailed: "Refund refused by the payment provider"
        case .orderRefundWithdrawn: "Took back a refund that never reached the provider"
        }
    }
}
