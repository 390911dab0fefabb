import CheckoutKit

/// A card of the payment provider's test mode, offered by name and token at checkout.
///
/// The store never asks for a card number: a card is only ever its provider token.
public struct TestCard: Hashable, Sendable, Identifiable {
    /// The provider's token, sent as the `card` field: `tok_visa`.
    public var token: String
    /// What the card is and does in the sandbox: "Visa — approved".
    public var name: String

    public init(token: String, name: String) {
        self.token = token
        self.name = name
    }

    public var id: String { token }

    /// The sandbox provider's test cards (``CheckoutKit/SandboxCard``), the first being the
    /// default choice.
    public static let sandbox: [TestCard] = SandboxCard.allCases.map { TestCard(token: $0.rawValue, name: $0.name) }

    /// "Visa — approved (tok_visa)".
    var menuLabel: String { "\(name) (\(token))" }
}
