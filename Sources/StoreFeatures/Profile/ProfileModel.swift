import CheckoutKit
import Foundation
import Observation
import StoreAPI
import StoreClient

/// The customer's profile: name, email and membership tier (docs/BEHAVIOUR.md §6, §10).
///
/// The tier is worked out by ``SubscriptionFacts/tier(at:)`` from the subscription facts kept on
/// the device, at every read: it shows at once from the cache, offline too, and is refreshed when
/// the server answers — labelled as confirmed now, last confirmed at a time, or not known yet.
@MainActor
@Observable
public final class ProfileModel {
    public private(set) var state: LoadState<ProfileBody> = .notStarted
    /// The subscription facts shown, and when the server confirmed them.
    public private(set) var subscription: CachedSubscription?
    /// Whether the server confirmed ``subscription`` since this screen was opened.
    private var confirmedNow = false

    private let profileClient: any ProfileClient
    private let cache: any SubscriptionCache
    private let now: @MainActor () -> Date
    private let locale: Locale
    private let timeZone: TimeZone

    /// Reads the cached facts at once, so the tier shows before (and without) the server.
    ///
    /// - Parameters:
    ///   - now: the clock the tier is decided by.
    ///   - locale, timeZone: how the time of the last confirmation is written.
    public init(
        profile: any ProfileClient, cache: any SubscriptionCache, now: @escaping @MainActor () -> Date = Date.init,
        locale: Locale = .current, timeZone: TimeZone = .current
    ) {
        self.profileClient = profile
        self.cache = cache
        self.now = now
        self.locale = locale
        self.timeZone = timeZone
        subscription = try? cache.load()
    }

    // MARK: What the screen shows

    /// "Ada Lovelace", once the server answered.
    public var fullName: String? {
        state.value.map { "\($0.firstName) \($0.lastName)" }
    }

    public var email: String? { state.value?.email }

    /// The tier now, from the cached facts; `nil` when not known yet.
    public var tier: Tier? {
        subscription?.facts.tier(at: now())
    }

    public var tierConfirmation: TierConfirmation {
        guard let subscription else { return .notKnownYet }
        return confirmedNow ? .confirmedNow : .lastConfirmed(at: subscription.confirmedAt)
    }

    /// "Pro", "Free" or "Not known yet".
    public var tierLabel: String {
        switch tier {
        case .pro: "Pro"
        case .free: "Free"
        case nil: "Not known yet"
        }
    }

    /// "Confirmed now", "Last confirmed at 2 Jun 2026 at 14:05" or "Not known yet".
    public var confirmationLabel: String {
        switch tierConfirmation {
        case .notKnownYet:
            "Not known yet"
        case .confirmedNow:
            "Confirmed now"
        case .lastConfirmed(let date):
            "Last confirmed at "
                + date.formatted(
                    Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, timeZone: timeZone))
        }
    }

    // MARK: What the person did

    /// The screen appeared: loads the profile once.
    public func task() async {
        guard !state.isLoadingOrLoaded else { return }
        await load()
    }

    /// "Try again" after a failed load.
    public func tryAgainButtonTapped() async {
        guard case .failed = state else { return }
        await load()
    }

    // MARK: Work

    private func load() async {
        state = .loading
        do throws(StoreClientError) {
            let profile = try await profileClient.profile()
            let confirmed = CachedSubscription(facts: profile.subscription.facts, confirmedAt: now())
            subscription = confirmed
            confirmedNow = true
            // Not saved, the facts still show now; the next launch shows the older ones or none.
            try? cache.save(confirmed)
            state = .loaded(profile)
        } catch {
            state = .failed(message: error.message)
        }
    }
}
