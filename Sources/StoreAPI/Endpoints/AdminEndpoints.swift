import CheckoutKit

/// The back office's JSON API (docs/BEHAVIOUR.md §13): staff bearer tokens, each route open to the
/// roles whose permissions it names.
public enum AdminEndpoints {
    /// A staff session (201): `{token, staff: {email, role}}`; 401 as for customers.
    public static let createSession = Endpoint<StaffSignInRequest, StaffSessionResponse>(.post, "/api/admin/sessions")
    /// Ends the bearer's staff session (204).
    public static let endSession = Endpoint<NoBody, NoBody>(.post, "/api/admin/logout", access: .staff(nil))
    /// Every member of staff, removed ones too (`active` false), in the order they were added (owner).
    public static let staff = Endpoint<NoBody, [StaffMemberBody]>(
        .get, "/api/admin/staff", access: .staff(.manageStaff))
    /// Adds a member of staff (owner) → 201.
    public static let addStaff = Endpoint<NewStaffRequest, StaffMemberBody>(
        .post, "/api/admin/staff", access: .staff(.manageStaff))

    /// Products by id, archived too: `?q=` searches title, SKU and category; `?offset=&limit=` page
    /// (limit 1–200, default 50).
    public static let products = Endpoint<NoBody, AdminProductList>(
        .get, "/api/admin/products", access: .staff(.manageCatalog))
    /// Adds a product with no stock → 201; 409 `sku_taken`; 422 `invalid_product` (with `field`).
    public static let createProduct = Endpoint<NewProductRequest, AdminProductBody>(
        .post, "/api/admin/products", access: .staff(.manageCatalog))
    /// One product, archived or not.
    public static let product = Endpoint<NoBody, AdminProductBody>(
        .get, "/api/admin/products/{id}", access: .staff(.manageCatalog))
    /// Changes a product's fields from `version`; a stale version → 409 `edit_conflict` with the
    /// product as it is now (``EditConflictBody``).
    public static let changeProduct = Endpoint<ProductChangeRequest, AdminProductBody>(
        .patch, "/api/admin/products/{id}", access: .staff(.manageCatalog))
    /// A product's stock ledger, newest first (`?before=` the last id seen, to page).
    public static let stockMovements = Endpoint<NoBody, [StockMovementBody]>(
        .get, "/api/admin/products/{id}/stock-adjustments", access: .staff(.adjustStock))
    /// Adjusts a product's stock → 201 with the stock now; below zero → 409 `insufficient_stock`,
    /// nothing changed. With an `Idempotency-Key` header it is made once: sent again, it answers the
    /// first line again; the key with another change → 422 `idempotency_mismatch`.
    public static let adjustStock = Endpoint<StockAdjustmentRequest, StockAdjustmentBody>(
        .post, "/api/admin/products/{id}/stock-adjustments", access: .staff(.adjustStock))
}
