import CheckoutKit

/// The back office's promotions, customers, dashboard, audit log and staff removal
/// (docs/BEHAVIOUR.md §13.9–§13.13).
extension AdminEndpoints {
    /// Every promotion code, disabled and expired ones too, by code, with its use count and status.
    public static let promotions = Endpoint<NoBody, [AdminPromotionBody]>(
        .get, "/api/admin/promotions", access: .staff(.managePromotions))
    /// Adds a code → 201; 409 `promotion_exists`; 422 `invalid_promotion` (with `field`).
    public static let createPromotion = Endpoint<NewPromotionRequest, AdminPromotionBody>(
        .post, "/api/admin/promotions", access: .staff(.managePromotions))
    /// Disables a code for good → 200 with the promotion; again, the same answer and no change.
    public static let disablePromotion = Endpoint<NoBody, AdminPromotionBody>(
        .post, "/api/admin/promotions/{code}/disable", access: .staff(.managePromotions))

    /// Customers by id: `?q=` searches email and name; `?offset=&limit=` page (limit 1–200,
    /// default 50).
    public static let customers = Endpoint<NoBody, AdminCustomerList>(
        .get, "/api/admin/customers", access: .staff(.readCustomers))
    /// A customer and their orders, newest first (`?offset=&limit=` page them).
    public static let customer = Endpoint<NoBody, AdminCustomerDetail>(
        .get, "/api/admin/customers/{id}", access: .staff(.readCustomers))

    /// Today's orders and revenue, orders to pack, products low on stock or sold out (any staff).
    public static let dashboard = Endpoint<NoBody, DashboardBody>(.get, "/api/admin/dashboard", access: .staff(nil))

    /// The audit log newest first (`?before=` the last id seen, `?limit=` 1–200, default 50): an
    /// owner's reads everyone's lines, anyone else's only their own.
    public static let audit = Endpoint<NoBody, [AuditEntryBody]>(.get, "/api/admin/audit", access: .staff(nil))
    /// The same lines, all of them, as CSV (`text/csv; charset=utf-8`, an attachment).
    public static let auditCSV = Endpoint<NoBody, RawBytes>(.get, "/api/admin/audit.csv", access: .staff(nil))

    /// Removes a member of staff (owner) → 200 with them, `active` false; the last owner → 409
    /// `last_owner`.
    public static let removeStaff = Endpoint<NoBody, StaffMemberBody>(
        .post, "/api/admin/staff/{id}/remove", access: .staff(.manageStaff))
}
