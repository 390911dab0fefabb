import Foundation

/// What every page shows around its own content: the header's state, the status of the last
/// action, the session's CSRF token, and how to format money and times.
///
/// The server builds one per request from the session; the pages never look anything up.
public struct PageContext: Sendable {
    /// The store's name, shown in the header and in every page's title.
    public var storeName: String
    /// How many units the shopper's basket holds, shown beside the basket link.
    public var basketCount: Int
    /// The name of the customer who is logged in, or `nil` for an anonymous shopper.
    public var customerName: String?
    /// The session's CSRF token, sent back in the hidden `csrf` field of every POST form.
    public var csrfToken: String
    /// What the last action did ("Added Running cap to your basket."), announced politely.
    public var status: StatusMessage?
    /// How money and times are written: `en_US` gives `€50.00`.
    public var locale: Locale
    /// The time zone order times are shown in.
    public var timeZone: TimeZone

    public init(
        storeName: String = "OnlineStore", basketCount: Int = 0, customerName: String? = nil, csrfToken: String,
        status: StatusMessage? = nil, locale: Locale = Locale(identifier: "en_US"),
        timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current
    ) {
        self.storeName = storeName
        self.basketCount = basketCount
        self.customerName = customerName
        self.csrfToken = csrfToken
        self.status = status
        self.locale = locale
        self.timeZone = timeZone
    }

    /// Whether a customer is logged in.
    public var isLoggedIn: Bool { customerName != nil }
}
