/// Keeps the subscription facts in memory: for tests and previews.
@MainActor
public final class InMemorySubscriptionCache: SubscriptionCache {
    /// What is stored now.
    public var stored: CachedSubscription?

    public init(_ stored: CachedSubscription? = nil) {
        self.stored = stored
    }

    public func load() -> CachedSubscription? {
        stored
    }

    public func save(_ subscription: CachedSubscription) {
        stored = subscription
    }

    public func remove() {
        stored = nil
    }
}
