/// The names of the fields and query parameters the back office's forms send, written once for
/// the pages and the server that reads them. ``AdminPaths`` lists which form sends which.
public enum AdminFormFields {
    /// The staff session's CSRF token, in every POST form (the storefront's name, `csrf`).
    public static let csrf = "csrf"
    public static let email = "email"
    public static let password = "password"
    /// Where the sign-in form returns to: a back-office path (query `next` of `/admin/login` too).
    public static let next = "next"

    // MARK: Products

    public static let title = "title"
    public static let description = "description"
    public static let category = "category"
    /// A price as typed: `12.50`.
    public static let price = "price"
    public static let sku = "sku"
    /// A checkbox: ``checkedValue`` when checked, absent when not.
    public static let active = "active"
    /// What a checked checkbox sends.
    public static let checkedValue = "on"
    /// The version of the product the form was made from.
    public static let version = "version"
    /// The product image file (multipart).
    public static let image = "image"
    /// A stock change as typed: `12`, `+12`, `-2`.
    public static let change = "change"
    /// A ``CheckoutKit/StockReason`` raw value.
    public static let reason = "reason"
    public static let note = "note"
    /// The catalog CSV file (multipart).
    public static let file = "file"
    /// An import preview's id, in the **Import** form and in the preview page's query.
    public static let upload = "upload"

    // MARK: Promotions

    public static let code = "code"
    /// `percent` or `amount` (``AdminPromotionForm/Kind``).
    public static let kind = "kind"
    public static let value = "value"
    public static let minimumSubtotal = "minimum_subtotal"
    /// A `datetime-local` value, `2025-03-12T14:05`, in the context's time zone.
    public static let starts = "starts"
    public static let ends = "ends"
    public static let usageLimit = "usage_limit"

    // MARK: Orders

    /// Where a fulfilment form moves the order: `packed`, `shipped`, `delivered`.
    public static let status = "status"
    /// The fulfilment status the page showed; the server refuses an action on an order that moved.
    public static let currentStatus = "current_status"
    public static let trackingNumber = "tracking_number"
    /// The key that makes a refund, a cancellation or a stock adjustment happen once, however often
    /// it is sent.
    public static let idempotencyKey = "idempotency_key"

    // MARK: Refunds

    /// The units of the order's line `position` (from 0) to refund, as typed: `quantity_0`.
    public static func refundQuantity(_ position: Int) -> String { "quantity_\(position)" }
    /// A checkbox: put line `position`'s refunded units back in stock: `restock_0`.
    public static func refundRestock(_ position: Int) -> String { "restock_\(position)" }
    /// A checkbox: refund the shipping.
    public static let refundShipping = "shipping"
    /// A goodwill amount as typed: `12.50`.
    public static let refundAmount = "amount"
    // The refund's reason (a ``CheckoutKit/RefundReasonKind`` raw value) and note are `reason` and `note`.

    // MARK: Staff

    /// A ``CheckoutKit/StaffRole`` raw value.
    public static let role = "role"

    // MARK: Query parameters

    /// Search text (product, order, customer lists).
    public static let search = "q"
    /// A page of a list, from 1.
    public static let page = "page"
    /// A ``CheckoutKit/PaymentStatus`` raw value (order list).
    public static let payment = "payment"
    /// A ``CheckoutKit/FulfilmentStatus`` raw value (order list).
    public static let fulfilment = "fulfilment"
    /// A `date` value, `2025-03-12` (order list).
    public static let from = "from"
    public static let to = "to"
    /// An audit entry's id: show the entries older than it.
    public static let before = "before"
}
