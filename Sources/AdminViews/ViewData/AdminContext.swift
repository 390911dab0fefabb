import CheckoutKit
import Foundation
import StoreViews

/// What every back-office page shows around its own content: who is signed in and which sections
/// they may open, the status of the last action, the session's CSRF token, and how to format money
/// and times.
///
/// The server builds one per request from the staff session; the pages never look anything up.
public struct AdminContext: Hashable, Sendable {
    /// The member of staff a page is shown to.
    public struct Staff: Hashable, Sendable {
        public var email: String
        public var role: StaffRole

        public init(email: String, role: StaffRole) {
            self.email = email
            self.role = role
        }
    }

    /// The shop's name, shown in the header and in every page's title.
    public var shopName: String
    /// Who is signed in; `nil` on the sign-in page (and on an error page shown without a session),
    /// which then has no navigation and no **Log out**.
    public var staff: Staff?
    /// The sections the header links to, in ``AdminSection``'s order. Only a convenience for the
    /// eye: the server checks the role on every route.
    public var sections: Set<AdminSection>
    /// The staff session's CSRF token, sent back in the hidden `csrf` field of every POST form.
    public var csrfToken: String
    /// What the last action did ("Product saved."), announced politely.
    public var status: StatusMessage?
    /// How money, numbers and times are written: `en_US` gives `€50.00`.
    public var locale: Locale
    /// The time zone times are shown in, and in which the date and date-time fields are read.
    public var timeZone: TimeZone

    /// A context for `staff`; `sections` defaults to what their role may open
    /// (``AdminSection/allowed(for:)``).
    public init(
        shopName: String = "OnlineStore", staff: Staff?, sections: Set<AdminSection>? = nil, csrfToken: String,
        status: StatusMessage? = nil, locale: Locale = Locale(identifier: "en_US"),
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current
    ) {
        self.shopName = shopName
        self.staff = staff
        self.sections = sections ?? staff.map { AdminSection.allowed(for: $0.role) } ?? []
        self.csrfToken = csrfToken
        self.status = status
        self.locale = locale
        self.timeZone = timeZone
    }
}

/// A part of the back office, as the header's navigation links to it.
public enum AdminSection: String, CaseIterable, Hashable, Sendable {
    case dashboard
    case products
    case promotions
    case orders
    case customers
    case staff
    case audit

    /// The link's text: `Dashboard`, `Audit log`…
    public var label: String {
        switch self {
        case .dashboard: "Dashboard"
        case .products: "Products"
        case .promotions: "Promotions"
        case .orders: "Orders"
        case .customers: "Customers"
        case .staff: "Staff"
        case .audit: "Audit log"
        }
    }

    /// Where the link goes.
    public var path: String {
        switch self {
        case .dashboard: AdminPaths.dashboard
        case .products: AdminPaths.products
        case .promotions: AdminPaths.promotions
        case .orders: AdminPaths.orders
        case .customers: AdminPaths.customers
        case .staff: AdminPaths.staff
        case .audit: AdminPaths.audit
        }
    }

    /// The sections `role` may open (docs/BEHAVIOUR.md §13): everyone the dashboard and the audit log
    /// (their own entries, or all of them for an owner); `catalog` the products and promotions;
    /// `orders` the orders and customers; `owner` everything, staff included.
    public static func allowed(for role: StaffRole) -> Set<AdminSection> {
        var sections: Set<AdminSection> = [.dashboard, .audit]
        if role.may(.manageCatalog) { sections.insert(.products) }
        if role.may(.managePromotions) { sections.insert(.promotions) }
        if role.may(.manageOrders) { sections.insert(.orders) }
        if role.may(.readCustomers) { sections.insert(.customers) }
        if role.may(.manageStaff) { sections.insert(.staff) }
        return sections
    }
}

extension StaffRole {
    /// What the role may do, in one line, for the staff page.
    var summary: String {
        switch self {
        case .owner: "Everything, including adding and removing staff."
        case .catalog: "Products, prices, stock, images, promotions, catalog import and export."
        case .orders: "Orders, fulfilment, cancellations, refunds; reads customers."
        }
    }

    /// `Owner`, `Catalog`, `Orders`.
    var label: String {
        switch self {
        case .owner: "Owner"
        case .catalog: "Catalog"
        case .orders: "Orders"
        }
    }
}
