import CheckoutKit
import StoreAPI

/// Every address the storefront's pages link to or send a form to, written once so the server's
/// routes and the pages cannot drift apart.
///
/// Pages (GET):
/// - `/` — the catalog; query `q` (search), `category`, `sort` (see ``CatalogQuery``).
/// - `/product/{id}` — a product (singular, so it cannot collide with the Fake-Store JSON route
///   `GET /products/{id}`; the route's pattern is ``productPattern``).
/// - `/basket` — the basket.
/// - `/checkout` — choose a payment method; query `method` and `card` preselect a choice.
/// - `/checkout/review` — review and pay; query `method` (`card`, `payment_link`, `qr_code`) and,
///   for a card, `card` (a test card token; the menu is always on the form, so `card` also comes
///   with the other methods and is then to be ignored). Sent by the checkout page's **Continue**
///   (a GET form: choosing changes nothing on the server). Mints the idempotency key.
/// - `/orders`, `/orders/{id}` — the shopper's orders and one receipt.
/// - `/login`, `/profile`.
///
/// Forms (POST, `application/x-www-form-urlencoded`, each with the hidden `csrf` field, each to be
/// answered by a 303 redirect):
/// - `/basket/items` — add to basket: `product_id`, `quantity` (1…10), `return_to` (a path on this
///   store to go back to; accept only one that starts with a single `/`).
/// - `/basket/items/{id}` — set a line's quantity: `quantity` (1…10).
/// - `/basket/items/{id}/remove` — remove a line.
/// - `/basket/promotion` — apply a code: `code`.
/// - `/basket/promotion/remove` — remove the code.
/// - `/checkout/pay` — pay: `idempotency_key`, `method`, `card` (for a card), `expected_total`
///   (the basket total the shopper saw, before the fee, as a plain decimal such as `45.00` in the
///   basket's currency).
/// - `/login` — `email`, `password`.
/// - `/logout` — no fields besides `csrf`.
public enum StorePaths {
    public static let catalog = "/"
    public static let basket = "/basket"
    public static let basketItems = "/basket/items"
    public static let promotion = "/basket/promotion"
    public static let removePromotion = "/basket/promotion/remove"
    public static let checkout = "/checkout"
    public static let checkoutReview = "/checkout/review"
    public static let pay = "/checkout/pay"
    public static let orders = "/orders"
    public static let login = "/login"
    public static let logout = "/logout"
    public static let profile = "/profile"
    /// The one stylesheet every page links to; its text is ``StoreStylesheet/css``.
    public static let stylesheet = "/static/store.css"

    // The route patterns of the pages and forms with a parameter, for the server's router; the
    // paths below are made from them.
    /// A product's page: `/product/{id}`.
    public static let productPattern = "/product/{id}"
    /// A basket line's quantity form: `/basket/items/{id}`.
    public static let basketItemPattern = "/basket/items/{id}"
    /// A basket line's remove form: `/basket/items/{id}/remove`.
    public static let removeBasketItemPattern = "/basket/items/{id}/remove"
    /// A receipt: `/orders/{id}`.
    public static let orderPattern = "/orders/{id}"

    /// A product's page: `/product/7`.
    public static func product(_ id: ProductID) -> String { filling(productPattern, with: String(id.rawValue)) }
    public static func basketItem(_ id: ProductID) -> String { filling(basketItemPattern, with: String(id.rawValue)) }
    public static func removeBasketItem(_ id: ProductID) -> String {
        filling(removeBasketItemPattern, with: String(id.rawValue))
    }
    public static func order(_ id: String) -> String { filling(orderPattern, with: URLText.escaped(id)) }

    /// `pattern` with its one `{parameter}` replaced by `segment` (already escaped).
    static func filling(_ pattern: String, with segment: String) -> String {
        pattern.replacingOccurrences(of: "{id}", with: segment)
    }

    /// The checkout page with `method` (and for a card, `card`) chosen again.
    public static func checkout(method: PaymentMethod.Kind, card: String?) -> String {
        var parameters = [(FormFields.method, method.rawValue)]
        if method == .card, let card { parameters.append((FormFields.card, card)) }
        return checkout + URLText.query(parameters)
    }
}
