import CheckoutKit
import Foundation

/// The signed-in customer's profile with their membership tier (docs/BEHAVIOUR.md §8).
public struct ProfileBody: Codable, Hashable, Sendable {
    public var firstName: String
    public var lastName: String
    public var email: String
    public var tier: Tier
    public var subscription: SubscriptionBody

    private enum CodingKeys: String, CodingKey {
        case firstName = "first_name"
        case lastName = "last_name"
        case email
        case tier
        case subscription
    }

    public init(firstName: String, lastName: String, email: String, tier: Tier, subscription: SubscriptionBody) {
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.tier = tier
        self.subscription = subscription
    }
}

/// The subscription facts the tier was decided from.
public struct SubscriptionBody: Codable, Hashable, Sendable {
    public var expiresAt: Date?
    public var willAutoRenew: Bool

    private enum CodingKeys: String, CodingKey {
        case expiresAt = "expires_at"
        case willAutoRenew = "will_auto_renew"
    }

    public init(expiresAt: Date?, willAutoRenew: Bool) {
        self.expiresAt = expiresAt
        self.willAutoRenew = willAutoRenew
    }

    public init(_ facts: SubscriptionFacts) {
        self.init(expiresAt: facts.expiresAt, willAutoRenew: facts.willAutoRenew)
    }

    public var facts: SubscriptionFacts {
        SubscriptionFacts(expiresAt: expiresAt, willAutoRenew: willAutoRenew)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        willAutoRenew = try container.decode(Bool.self, forKey: .willAutoRenew)
        if let text = try container.decodeIfPresent(String.self, forKey: .expiresAt) {
            expiresAt = try StoreJSON.date(text, forKey: .expiresAt, in: container)
        } else {
            expiresAt = nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(expiresAt.map(StoreJSON.timestamp), forKey: .expiresAt)
        try container.encode(willAutoRenew, forKey: .willAutoRenew)
    }
}
