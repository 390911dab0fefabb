/// Something a member of staff may do in the back office (docs/BEHAVIOUR.md §13): a closed set,
/// checked by the server on every admin route — hiding a link is not protection.
public enum Permission: String, CaseIterable, Hashable, Sendable {
    /// Products, prices, images, categories, catalog import and export.
    case manageCatalog = "manage_catalog"
    /// Stock adjustments.
    case adjustStock = "adjust_stock"
    /// Promotion codes.
    case managePromotions = "manage_promotions"
    /// Orders: reading them, fulfilment, cancellations.
    case manageOrders = "manage_orders"
    /// Refunds.
    case refund = "refund"
    /// Reading customers and their orders.
    case readCustomers = "read_customers"
    /// Adding, changing and removing staff.
    case manageStaff = "manage_staff"
    /// Reading the whole audit log (everyone reads their own entries).
    case readAuditLog = "read_audit_log"
}

/// What a member of staff is: each role a set of ``Permission``s, and never a fourth role.
public enum StaffRole: String, CaseIterable, Hashable, Sendable {
    /// Everything, and managing staff.
    case owner
    /// Products, prices, stock, images, categories, promotions, catalog import and export.
    case catalog
    /// Orders, fulfilment, cancellations, refunds, customers (reading).
    case orders

    public var permissions: Set<Permission> {
        switch self {
        case .owner: Set(Permission.allCases)
        case .catalog: [.manageCatalog, .adjustStock, .managePromotions]
        case .orders: [.manageOrders, .refund, .readCustomers]
        }
    }

    /// Whether this role may do what `permission` allows.
    public func may(_ permission: Permission) -> Bool {
        permissions.contains(permission)
    }
}
