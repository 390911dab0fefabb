/// Where the app keeps the customer's subscription facts between launches, so the tier shows at
/// once and offline.
@MainActor
public protocol SubscriptionCache {
    /// The facts last saved, or `nil` when none were.
    ///
    /// - Throws: when the stored facts cannot be read (the caller treats them as not known).
    func load() throws -> CachedSubscription?

    /// Replaces the stored facts.
    func save(_ subscription: CachedSubscription) throws

    /// Forgets the stored facts (at logout, or when another customer logs in).
    func remove() throws
}
