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

    /// An action's code in words: `product.changed` → `Changed a product`. An unknown code is
    /// written as it is.
    public static func describe(action code: String) -> String {
        actionWords[code] ?? code
    }

    /// The words for the actions the store records.
    public static let actionWords: [String: String] = [
        "staff.signed_in": "Signed in",
        "staff.sign_in_failed": "Failed to sign in",
        "staff.signed_out": "Signed out",
        "staff.added": "Added a member of staff",
        "staff.removed": "Removed a member of staff",
        "staff.role_changed": "Changed a member of staff's role",
        "product.created": "Created a product",
        "product.changed": "Changed a product",
        "product.image_changed": "Changed a product's image",
        "stock.adjusted": "Adjusted stock",
        "catalog.imported": "Imported the catalog",
        "promotion.created": "Created a promotion",
        "promotion.disabled": "Disabled a promotion",
        "order.packed": "Marked an order packed",
        "order.shipped": "Marked an order shipped",
        "order.delivered": "Marked an order delivered",
        "order.cancelled": "Cancelled an order",
        "refund.requested": "Asked for a refund",
        "refund.succeeded": "Refunded",
        "refund.failed": "Refund refused",
    ]
}
