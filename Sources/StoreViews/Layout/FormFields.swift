/// The names of the fields the storefront's forms send, written once for the pages and the
/// server that reads them. ``StorePaths`` lists which form sends which.
public enum FormFields {
    /// The session's CSRF token, in every POST form.
    public static let csrf = "csrf"
    public static let productID = "product_id"
    public static let quantity = "quantity"
    /// Where to go back to after adding to the basket: a path on this store.
    public static let returnTo = "return_to"
    /// A promo code as typed.
    public static let code = "code"
    /// `card`, `payment_link` or `qr_code`.
    public static let method = "method"
    /// A test card's token, for a card payment.
    public static let card = "card"
    public static let idempotencyKey = "idempotency_key"
    /// The basket total the shopper confirmed, before the fee: `45.00`.
    public static let expectedTotal = "expected_total"
    public static let email = "email"
    public static let password = "password"
    /// The catalog's search text (query string).
    public static let search = "q"
    /// The catalog's category (query string).
    public static let category = "category"
    /// The catalog's order (query string).
    public static let sort = "sort"
    /// The page of one category's products (query string), from 1.
    public static let page = "page"
}
