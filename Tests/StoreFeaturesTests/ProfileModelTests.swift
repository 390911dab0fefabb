import CheckoutKit
import Foundation
import StoreAPI
import StoreClient
import StoreFeatures
import Testing

/// docs/BEHAVIOUR.md §6 and §10, the profile: name, email, and the tier from cached subscription facts.
@MainActor
@Suite struct ProfileModelTests {
    let profile = FakeProfileClient()
    let clock = TestClock()

    static let day: TimeInterval = 86_400

    func makeModel(_ cache: any SubscriptionCache) -> ProfileModel {
        ProfileModel(
            profile: profile, cache: cache, now: { [clock] in clock.now }, locale: enUS,
            timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    func body(expiresAt: Date?, willAutoRenew: Bool) -> ProfileBody {
        ProfileBody(
            firstName: "Ada", lastName: "Lovelace", email: "pro@onlinestore.test", tier: .pro,
            subscription: SubscriptionBody(expiresAt: expiresAt, willAutoRenew: willAutoRenew))
    }

    @Test("nothing cached: the tier is not known yet")
    func notKnownYet() {
        let model = makeModel(InMemorySubscriptionCache())
        #expect(model.tier == nil)
        #expect(model.tierConfirmation == .notKnownYet)
        #expect(model.tierLabel == "Not known yet")
        #expect(model.confirmationLabel == "Not known yet")
    }

    @Test("offline: the tier shows from the cache, labelled with when it was last confirmed")
    func offlineFromCache() async {
        let confirmedAt = clock.now.addingTimeInterval(-2 * Self.day)
        let cache = InMemorySubscriptionCache(
            CachedSubscription(
                facts: SubscriptionFacts(expiresAt: clock.now.addingTimeInterval(30 * Self.day), willAutoRenew: false),
                confirmedAt: confirmedAt))
        let model = makeModel(cache)
        #expect(model.tier == .pro)  // at once, before any answer

        profile.onProfile = { .failure(.unavailable) }
        await model.task()
        #expect(model.state == .failed(message: StoreClientError.unavailable.message))
        #expect(model.tier == .pro)
        #expect(model.tierConfirmation == .lastConfirmed(at: confirmedAt))
        #expect(model.confirmationLabel.hasPrefix("Last confirmed at "))
        #expect(model.confirmationLabel.contains("2026"))
    }

    @Test("the server's answer refreshes the facts, confirmed now, and saves them with the time")
    func refreshed() async {
        let cache = InMemorySubscriptionCache()
        let model = makeModel(cache)
        let expiresAt = clock.now.addingTimeInterval(Self.day)
        profile.onProfile = {
            #expect(model.state == .loading)
            return .success(self.body(expiresAt: expiresAt, willAutoRenew: false))
        }
        await model.task()
        #expect(model.fullName == "Ada Lovelace")
        #expect(model.email == "pro@onlinestore.test")
        #expect(model.tier == .pro)
        #expect(model.tierConfirmation == .confirmedNow)
        #expect(model.confirmationLabel == "Confirmed now")
        #expect(
            cache.stored
                == CachedSubscription(
                    facts: SubscriptionFacts(expiresAt: expiresAt, willAutoRenew: false), confirmedAt: clock.now))
    }

    @Test("the profile loads once")
    func loadsOnce() async {
        let model = makeModel(InMemorySubscriptionCache())
        profile.onProfile = {
            await model.task()
            return .success(self.body(expiresAt: nil, willAutoRenew: false))
        }
        await model.task()
        await model.task()
        #expect(profile.profileCalls == 1)
    }

    @Test(
        "an expiration exactly now counts as passed: free unless auto-renew",
        arguments: [(false, Tier.free), (true, Tier.pro)])
    func expiryBoundary(willAutoRenew: Bool, expected: Tier) {
        let facts = SubscriptionFacts(expiresAt: clock.now, willAutoRenew: willAutoRenew)
        let model = makeModel(
            InMemorySubscriptionCache(CachedSubscription(facts: facts, confirmedAt: clock.now.addingTimeInterval(-60))))
        #expect(model.tier == expected)
    }

    @Test("the tier is decided at every read: a subscription expiring while offline turns free on time")
    func expiresWhileOffline() {
        let expiresAt = clock.now.addingTimeInterval(60)
        let model = makeModel(
            InMemorySubscriptionCache(
                CachedSubscription(
                    facts: SubscriptionFacts(expiresAt: expiresAt, willAutoRenew: false), confirmedAt: clock.now)))
        #expect(model.tier == .pro)
        clock.now = expiresAt
        #expect(model.tier == .free)
        #expect(model.tierLabel == "Free")
    }

    @Test("the file cache keeps the facts across launches, written atomically as JSON")
    func fileCache() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StoreFeaturesTests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("subscription.json")
        let cache = FileSubscriptionCache(url: url)
        #expect(try cache.load() == nil)

        let saved = CachedSubscription(
            facts: SubscriptionFacts(expiresAt: Date(timeIntervalSince1970: 1_780_000_000.25), willAutoRenew: true),
            confirmedAt: Date(timeIntervalSince1970: 1_779_000_000.5))
        try cache.save(saved)
        #expect(try FileSubscriptionCache(url: url).load() == saved)

        try cache.remove()
        #expect(try cache.load() == nil)
    }

    @Test("an unreadable cache file means the tier is not known yet")
    func unreadableCacheFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StoreFeaturesTests-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("subscription.json")
        try Data("{\"subscription\":".utf8).write(to: url)
        let model = makeModel(FileSubscriptionCache(url: url))
        #expect(model.tierConfirmation == .notKnownYet)
    }
}
