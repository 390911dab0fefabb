import CheckoutKit
import Foundation
import StoreClient

/// Everything the screen models need from outside: the clients, the subscription cache, the
/// clock, the key generator, waiting, and the locale.
@MainActor
public struct AppDependencies {
    public var clients: StoreClients
    public var subscriptionCache: any SubscriptionCache
    public var now: @MainActor () -> Date
    public var makeKey: @MainActor () -> IdempotencyKey
    public var sleep: @Sendable (Duration) async throws -> Void
    public var locale: Locale
    public var timeZone: TimeZone

    public init(
        clients: StoreClients, subscriptionCache: any SubscriptionCache,
        now: @escaping @MainActor () -> Date = Date.init,
        makeKey: @escaping @MainActor () -> IdempotencyKey = IdempotencyKey.uuid,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        locale: Locale = .current, timeZone: TimeZone = .current
    ) {
        self.clients = clients
        self.subscriptionCache = subscriptionCache
        self.now = now
        self.makeKey = makeKey
        self.sleep = sleep
        self.locale = locale
        self.timeZone = timeZone
    }
}
