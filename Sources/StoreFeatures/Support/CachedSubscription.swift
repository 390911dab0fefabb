import CheckoutKit
import Foundation
import StoreAPI

/// The subscription facts last heard from the server and when they were confirmed, as kept on
/// the device between launches (docs/BEHAVIOUR.md §6, §10).
///
/// The tier is never stored: it is worked out from the facts at every read
/// (``SubscriptionFacts/tier(at:)``), so a subscription that expires while the app is offline
/// turns free on time.
public struct CachedSubscription: Hashable, Sendable {
    public var facts: SubscriptionFacts
    /// When the server last confirmed the facts, by the device's clock.
    public var confirmedAt: Date

    public init(facts: SubscriptionFacts, confirmedAt: Date) {
        self.facts = facts
        self.confirmedAt = confirmedAt
    }
}

extension CachedSubscription: Codable {
    private enum CodingKeys: String, CodingKey {
        case subscription
        case confirmedAt = "confirmed_at"
    }

    /// Instants as the API writes them: ISO 8601 in UTC with milliseconds.
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        facts = try container.decode(SubscriptionBody.self, forKey: .subscription).facts
        let text = try container.decode(String.self, forKey: .confirmedAt)
        guard let date = try? Self.timestampStyle.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .confirmedAt, in: container, debugDescription: "expected an ISO 8601 timestamp")
        }
        confirmedAt = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SubscriptionBody(facts), forKey: .subscription)
        try container.encode(confirmedAt.formatted(Self.timestampStyle), forKey: .confirmedAt)
    }
}
