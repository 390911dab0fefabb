import CheckoutKit

/// The customer's profile at `/profile`: name, email and membership tier.
public struct ProfilePage: Hashable, Sendable {
    public var firstName: String
    public var lastName: String
    public var email: String
    public var tier: Tier

    public init(firstName: String, lastName: String, email: String, tier: Tier) {
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.tier = tier
    }
}
