import CheckoutKit
import Foundation

/// The store's rules and limits that are configuration rather than code.
public struct StoreConfiguration: Sendable {
    /// Shipping costs, in the store's currency: every basket is priced in the currency of its policy.
    public var shipping: ShippingPolicy
    public var fees: FeePolicy
    /// The locale of messages that contain amounts ("Add €5.00 more to use BIG20.").
    public var locale: Locale
    /// How long a session token stays valid.
    public var sessionLifetime: TimeInterval
    /// How often the catalog snapshot served to readers is refreshed from the database (changes
    /// made through this server refresh it at once).
    public var catalogRefreshInterval: Duration
    /// Failed logins allowed within ``loginThrottleWindow``: for one account from one address, from
    /// one address for any accounts, and for one account from addresses it has not logged in from.
    /// See `LoginThrottle` for the whole policy.
    public var loginFailuresPerAccountAndAddress: Int
    public var loginFailuresPerAddress: Int
    public var loginFailuresPerAccount: Int
    public var loginThrottleWindow: TimeInterval
    /// New anonymous shoppers (`POST /api/sessions`, `POST /carts` without a token) one client
    /// address may create: a burst of this many, then this many a minute.
    public var newShoppersPerAddressPerMinute: Int
    public var newShoppersPerAddressBurst: Int
    /// How long a declined payment attempt (and with it its idempotency key) is kept: at least the
    /// 24 hours a key must live (docs/BEHAVIOUR.md §9.6).
    public var failedAttemptRetention: TimeInterval
    /// How long an anonymous shopper nobody can reach any more (no session, no attempt) is kept.
    public var anonymousShopperRetention: TimeInterval

    public init(
        shipping: ShippingPolicy = .standard, fees: FeePolicy = .standard,
        locale: Locale = Locale(identifier: "en_US"), sessionLifetime: TimeInterval = 30 * 24 * 3_600,
        catalogRefreshInterval: Duration = .seconds(1), loginFailuresPerAccountAndAddress: Int = 5,
        loginFailuresPerAddress: Int = 20, loginFailuresPerAccount: Int = 20,
        loginThrottleWindow: TimeInterval = 15 * 60,
        newShoppersPerAddressPerMinute: Int = 60, newShoppersPerAddressBurst: Int = 120,
        failedAttemptRetention: TimeInterval = 7 * 86_400, anonymousShopperRetention: TimeInterval = 86_400
    ) {
        self.failedAttemptRetention = failedAttemptRetention
        self.anonymousShopperRetention = anonymousShopperRetention
        self.newShoppersPerAddressPerMinute = newShoppersPerAddressPerMinute
        self.newShoppersPerAddressBurst = newShoppersPerAddressBurst
        self.loginFailuresPerAccountAndAddress = loginFailuresPerAccountAndAddress
        self.shipping = shipping
        self.fees = fees
        self.locale = locale
        self.sessionLifetime = sessionLifetime
        self.catalogRefreshInterval = catalogRefreshInterval
        self.loginFailuresPerAccount = loginFailuresPerAccount
        self.loginFailuresPerAddress = loginFailuresPerAddress
        self.loginThrottleWindow = loginThrottleWindow
    }
}

/// The store's sense of time, injected so tests can move it.
public struct StoreClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static let system = StoreClock { Date() }
}

extension StoreConfiguration {
    /// The login throttle's limits: these, at most 2 checks of one account at once, and an address
    /// trusted for an account for 30 days after it logged in.
    package var loginLimits: LoginThrottle.Limits {
        LoginThrottle.Limits(
            perAccountAndAddress: loginFailuresPerAccountAndAddress, perAddress: loginFailuresPerAddress,
            perAccount: loginFailuresPerAccount, inFlightPerAccount: 2, window: loginThrottleWindow,
            trustedFor: 30 * 24 * 3_600)
    }
}
