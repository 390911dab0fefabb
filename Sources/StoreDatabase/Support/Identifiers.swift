import CheckoutKit

/// A shopper: whoever holds a basket — an anonymous visitor or a signed-in customer.
///
/// Opaque text (`shp_` and 26 base-32 characters, time-ordered: see
/// ``CheckoutKit/OpaqueIdentifier/makeOrdered(prefix:)``), never shown to other shoppers.
public struct ShopperID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A fresh identifier, time-ordered, from the system's secure random source.
    public static func random() -> ShopperID {
        ShopperID(rawValue: OpaqueIdentifier.makeOrdered(prefix: "shp_"))
    }

    public var description: String { rawValue }
}

/// A registered customer. Integers, because the Fake-Store-compatible `GET /users/{id}` route
/// addresses customers by number.
public struct CustomerID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }
}

/// One payment attempt: the key the store gives the payment provider, unique across shoppers.
public struct AttemptID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A fresh identifier, time-ordered, from the system's secure random source.
    public static func random() -> AttemptID {
        AttemptID(rawValue: OpaqueIdentifier.makeOrdered(prefix: "pay_"))
    }

    public var description: String { rawValue }
}

/// One call to the payment provider for an attempt. An attempt's "call in flight" mark holds the
/// id of the call that set it, so only that call's answer can clear it.
public struct ProviderCallID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static func random() -> ProviderCallID {
        ProviderCallID(rawValue: OpaqueIdentifier.make(prefix: "call_"))
    }

    public var description: String { rawValue }
}

/// A member of staff: numbered by the database.
public struct StaffID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int64

    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }
}
