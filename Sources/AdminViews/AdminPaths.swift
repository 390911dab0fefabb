import CheckoutKit

/// Every address of the back office, written once so the server's routes and the pages cannot
/// drift apart. The patterns (`…Pattern`) are for the server's router; the functions fill them in,
/// percent-encoding what they are given.
///
/// Pages (GET):
/// - `/admin` — the dashboard; `/admin/login` — sign-in; `/admin/style.css` — ``AdminStylesheet/css``.
/// - `/admin/products` — query `q` (search), `page` (from 1).
/// - `/admin/products/new`, `/admin/products/{id}` — a product's form, image, stock and ledger.
/// - `/admin/products/import` — the upload form; query `upload` (an upload's id) shows its preview.
/// - `/admin/products/export.csv` — the catalog as CSV.
/// - `/admin/promotions`, `/admin/promotions/new`.
/// - `/admin/orders` — query `payment`, `fulfilment`, `from`, `to`, `q`, `page` (see
///   ``AdminOrderFilter``); `/admin/orders/{id}`.
/// - `/admin/orders/{id}/refund` — the refund form, empty or (with its fields in the query, as the
///   review's **Change** link sends them) as typed.
/// - `/admin/orders/{id}/refund/review` — the refund form's GET target, with its fields in the
///   query: the amount the refund gives back, and **Refund €X.XX** with a key minted for it; or the
///   form again with its problems (422).
/// - `/admin/customers` — query `q`, `page`; `/admin/customers/{id}` — query `page`.
/// - `/admin/staff` (owner).
/// - `/admin/audit` — query `before` (an entry's id: the entries older than it);
///   `/admin/audit.csv` — the log as CSV.
///
/// Forms (POST, each with the hidden `csrf` field first, each to be answered by a 303 redirect or,
/// for a form with problems, by its page again with the problems and what was typed; field names
/// on ``AdminFormFields``). `application/x-www-form-urlencoded` unless marked multipart:
/// - `/admin/login` — `email`, `password`; `/admin/logout` — nothing else.
/// - `/admin/products/new` — create: `title`, `description`, `category`, `price`, `sku`, `active`
///   (`on` when checked, absent when not: archived).
/// - `/admin/products/{id}` — save: the same fields and `version` (the version the form was made
///   from; a stale one is an edit conflict).
/// - `/admin/products/{id}/image` — multipart: `image` (a file).
/// - `/admin/products/{id}/stock` — `change` (signed whole number as typed: `12`, `+12`, `-2`,
///   `−2`), `reason` (``CheckoutKit/StockReason/staffReasons``), `note` (may be empty),
///   `idempotency_key` (when the page had one).
/// - `/admin/products/import` — multipart `file` (the CSV): make a preview; or, from a preview,
///   `upload` (the preview's id): apply it.
/// - `/admin/promotions/new` — `code`, `kind` (`percent` or `amount`), `value`, `minimum_subtotal`,
///   `starts`, `ends` (`datetime-local` values in the context's time zone, may be empty),
///   `usage_limit` (may be empty).
/// - `/admin/promotions/{code}/disable` — nothing else.
/// - `/admin/orders/{id}/fulfilment` — `status` (`packed`, `shipped`, `delivered`: where to move),
///   `current_status` (the fulfilment status the page showed), `tracking_number` (with `shipped`).
/// - `/admin/orders/{id}/cancel` — `current_status`, `idempotency_key`.
/// - `/admin/orders/{id}/refund` — the refund the review showed: `quantity_N` and `restock_N` for
///   the order's line N (from 0), `shipping`, `amount`, `reason`, `note` (as the refund form sends
///   them), and `idempotency_key` (minted with the review).
/// - `/admin/staff` — add: `email`, `role`, `password`.
/// - `/admin/staff/{id}/remove` — nothing else.
public enum AdminPaths {
    public static let dashboard = "/admin"
    public static let login = "/admin/login"
    public static let logout = "/admin/logout"
    /// The back office's one stylesheet; its text is ``AdminStylesheet/css``.
    public static let stylesheet = "/admin/style.css"
    public static let products = "/admin/products"
    public static let newProduct = "/admin/products/new"
    public static let importProducts = "/admin/products/import"
    public static let exportProducts = "/admin/products/export.csv"
    public static let promotions = "/admin/promotions"
    public static let newPromotion = "/admin/promotions/new"
    public static let orders = "/admin/orders"
    public static let customers = "/admin/customers"
    public static let staff = "/admin/staff"
    public static let audit = "/admin/audit"
    public static let exportAudit = "/admin/audit.csv"
    /// The shop's front page, linked from the footer.
    public static let shop = "/"

    // MARK: Patterns

    public static let productPattern = "/admin/products/{id}"
    public static let productImagePattern = "/admin/products/{id}/image"
    public static let productStockPattern = "/admin/products/{id}/stock"
    public static let disablePromotionPattern = "/admin/promotions/{code}/disable"
    public static let orderPattern = "/admin/orders/{id}"
    public static let orderFulfilmentPattern = "/admin/orders/{id}/fulfilment"
    public static let cancelOrderPattern = "/admin/orders/{id}/cancel"
    public static let refundPattern = "/admin/orders/{id}/refund"
    public static let refundReviewPattern = "/admin/orders/{id}/refund/review"
    public static let customerPattern = "/admin/customers/{id}"
    public static let removeStaffPattern = "/admin/staff/{id}/remove"

    // MARK: Filled in

    /// `/admin/products/7`.
    public static func product(_ id: ProductID) -> String { fill(productPattern, "{id}", String(id.rawValue)) }
    public static func productImage(_ id: ProductID) -> String {
        fill(productImagePattern, "{id}", String(id.rawValue))
    }
    public static func productStock(_ id: ProductID) -> String {
        fill(productStockPattern, "{id}", String(id.rawValue))
    }
    /// `/admin/promotions/RUN10/disable`.
    public static func disablePromotion(_ code: String) -> String { fill(disablePromotionPattern, "{code}", code) }
    /// `/admin/orders/ord_…`.
    public static func order(_ id: String) -> String { fill(orderPattern, "{id}", id) }
    public static func orderFulfilment(_ id: String) -> String { fill(orderFulfilmentPattern, "{id}", id) }
    public static func cancelOrder(_ id: String) -> String { fill(cancelOrderPattern, "{id}", id) }
    /// The refund form of an order, `/admin/orders/ord_…/refund`; the address its review confirms to.
    public static func refund(_ id: String) -> String { fill(refundPattern, "{id}", id) }
    public static func refundReview(_ id: String) -> String { fill(refundReviewPattern, "{id}", id) }
    /// `/admin/customers/12`.
    public static func customer(_ id: Int64) -> String { fill(customerPattern, "{id}", String(id)) }
    /// `/admin/staff/3/remove`.
    public static func removeStaff(_ id: Int64) -> String { fill(removeStaffPattern, "{id}", String(id)) }

    // MARK: With a query

    /// The product list searched for `search` at `page` (1 is left out): `/admin/products?q=cap&page=2`.
    public static func products(search: String, page: Int = 1) -> String {
        products + AdminURL.query([(AdminFormFields.search, search), (AdminFormFields.page, pageText(page))])
    }

    /// The order list with `filter` at `page`.
    public static func orders(_ filter: AdminOrderFilter, page: Int = 1) -> String {
        orders + AdminURL.query(filter.parameters + [(AdminFormFields.page, pageText(page))])
    }

    /// The customer list searched for `search` at `page`.
    public static func customers(search: String, page: Int = 1) -> String {
        customers + AdminURL.query([(AdminFormFields.search, search), (AdminFormFields.page, pageText(page))])
    }

    /// A customer's page at `page` of their orders.
    public static func customer(_ id: Int64, page: Int) -> String {
        customer(id) + AdminURL.query([(AdminFormFields.page, pageText(page))])
    }

    /// The audit log's entries older than the entry `before`; the newest without it.
    public static func audit(before: Int64?) -> String {
        audit + AdminURL.query([(AdminFormFields.before, before.map(String.init) ?? "")])
    }

    /// The refund form of order `id` showing `form` as typed.
    public static func refund(_ id: String, form: AdminRefundForm) -> String {
        refund(id) + AdminURL.query(form.parameters)
    }

    /// The sign-in form, returning to `next` (a back-office path) after signing in.
    public static func login(next: String?) -> String {
        login + AdminURL.query([(AdminFormFields.next, next ?? "")])
    }

    /// The import page showing the preview of the upload `upload`.
    public static func importPreview(upload: String) -> String {
        importProducts + AdminURL.query([(AdminFormFields.upload, upload)])
    }

    /// `pattern` with `placeholder` replaced by `value`, percent-encoded.
    private static func fill(_ pattern: String, _ placeholder: String, _ value: String) -> String {
        pattern.replacingOccurrences(of: placeholder, with: AdminURL.escaped(value))
    }

    private static func pageText(_ page: Int) -> String {
        page > 1 ? String(page) : ""
    }
}
