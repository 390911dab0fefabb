import CheckoutKit
import Foundation
import StoreSQL

/// A basket as stored: its lines with the products as they are now, and its promotion code.
public struct StoredBasket: Hashable, Sendable {
    public struct Line: Hashable, Sendable {
        public let product: Product
        public let quantity: Quantity
    }

    public let lines: [Line]
    public let promotionCode: PromotionCode?

    /// The lines at the products' current prices, for ``CheckoutKit/Pricing``.
    public var basketLines: [BasketLine] {
        lines.map { BasketLine(product: $0.product, quantity: $0.quantity) }
    }
}

/// What pricing a basket needs, as stored.
public struct PricingInputs: Hashable, Sendable {
    public let basket: StoredBasket
    /// The basket's promotion, when its code still exists (whatever its availability now).
    public let promotion: Promotion?
    /// The customer's subscription facts; `nil` for an anonymous shopper.
    public let subscription: SubscriptionFacts?
}

/// Each shopper's basket. Every method is scoped to one shopper: no call can reach another's.
public struct BasketRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The basket of `shopper` (empty when they never added anything).
    public func basket(for shopper: ShopperID) async throws -> StoredBasket {
        try await database.read { connection in try Self.basket(for: shopper, on: connection) }
    }

    /// Everything pricing the basket needs, read in one go: the basket, its promotion (if the code
    /// still exists) and, for a signed-in customer, their subscription facts.
    public func pricingInputs(for shopper: ShopperID, customer: CustomerID?) async throws -> PricingInputs {
        try await database.read { connection in
            let basket = try Self.basket(for: shopper, on: connection)
            let promotion = try basket.promotionCode.flatMap { try PromotionRepository.promotion($0, on: connection) }
            let subscription = try customer.flatMap { id in
                try connection.queryFirst(
                    "SELECT \(CustomerRepository.columns) FROM customers WHERE id = \(id.rawValue)"
                ).map { try CustomerRepository.record(from: $0).subscription }
            }
            return PricingInputs(basket: basket, promotion: promotion, subscription: subscription)
        }
    }

    /// Sets the quantity of `product` in the basket, adding the line when absent.
    ///
    /// - Returns: `false` when there is no such product (nothing changed).
    public func setQuantity(
        _ quantity: Quantity, of product: ProductID, for shopper: ShopperID, now: Date
    ) async throws
        -> Bool
    {
        try await database.write { connection in
            guard try connection.queryFirst("SELECT id FROM products WHERE id = \(product.rawValue)") != nil else {
                return false
            }
            try Self.ensureBasket(for: shopper, now: now, on: connection)
            try connection.execute(
                """
                INSERT INTO basket_lines (shopper_id, product_id, quantity, position)
                VALUES (\(shopper.rawValue), \(product.rawValue), \(quantity.value), \(Self.nextPosition(for: shopper)))
                ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity = excluded.quantity
                """)
            return true
        }
    }

    /// Removes `product`'s line; removing a line that is not there changes nothing.
    public func removeLine(_ product: ProductID, for shopper: ShopperID, now: Date) async throws {
        try await database.write { connection in
            let removed = try connection.execute(
                "DELETE FROM basket_lines WHERE shopper_id = \(shopper.rawValue) AND product_id = \(product.rawValue)")
            if removed > 0 { try Self.touch(shopper, now: now, on: connection) }
        }
    }

    /// Sets or clears the basket's promotion code. The caller has checked the code exists.
    public func setPromotion(_ code: PromotionCode?, for shopper: ShopperID, now: Date) async throws {
        try await database.write { connection in
            try Self.ensureBasket(for: shopper, now: now, on: connection)
            try connection.execute(
                """
                UPDATE baskets SET promotion_code = \(code?.rawValue), updated_at = \(now.unixMilliseconds)
                WHERE shopper_id = \(shopper.rawValue)
                """)
        }
    }

    // MARK: Building blocks for transactions

    static func basket(for shopper: ShopperID, on connection: any SQLConnection) throws -> StoredBasket {
        let rows = try connection.query(
            """
            SELECT l.quantity, \(CatalogRepository.productColumns)
            FROM basket_lines l JOIN products p ON p.id = l.product_id
            WHERE l.shopper_id = \(shopper.rawValue)
            ORDER BY l.position, l.product_id
            """)
        let lines = try rows.map { row in
            guard let quantity = Quantity(try row.decode("quantity", as: Int.self)) else {
                throw DatabaseError.decoding(column: "quantity", expected: "a quantity from 1 to 10")
            }
            return StoredBasket.Line(product: try CatalogRepository.product(from: row), quantity: quantity)
        }
        let code = try connection.queryFirst(
            "SELECT promotion_code FROM baskets WHERE shopper_id = \(shopper.rawValue)"
        ).flatMap { try $0.decode("promotion_code", as: String?.self) }.flatMap(PromotionCode.init(rawValue:))
        return StoredBasket(lines: lines, promotionCode: code)
    }

    static func ensureBasket(for shopper: ShopperID, now: Date, on connection: any SQLConnection) throws {
        try connection.execute(
            """
            INSERT INTO baskets (shopper_id, promotion_code, updated_at)
            VALUES (\(shopper.rawValue), NULL, \(now.unixMilliseconds))
            ON CONFLICT (shopper_id) DO UPDATE SET updated_at = excluded.updated_at
            """)
    }

    static func touch(_ shopper: ShopperID, now: Date, on connection: any SQLConnection) throws {
        try connection.execute(
            "UPDATE baskets SET updated_at = \(now.unixMilliseconds) WHERE shopper_id = \(shopper.rawValue)")
    }

    /// The position after the basket's last line: lines keep the order they were added in.
    static func nextPosition(for shopper: ShopperID) -> SQLQuery {
        "(SELECT COALESCE(MAX(position), 0) + 1 FROM basket_lines WHERE shopper_id = \(shopper.rawValue))"
    }

    /// Empties the basket: no lines, no code.
    static func empty(_ shopper: ShopperID, now: Date, on connection: any SQLConnection) throws {
        try connection.execute("DELETE FROM basket_lines WHERE shopper_id = \(shopper.rawValue)")
        try connection.execute(
            """
            UPDATE baskets SET promotion_code = NULL, updated_at = \(now.unixMilliseconds)
            WHERE shopper_id = \(shopper.rawValue)
            """)
    }

    /// Adds the lines of `source`'s basket to `target`'s (capped at 10 a line), carries the code
    /// over when `target` has none, and empties `source`'s basket.
    static func merge(
        from source: ShopperID, into target: ShopperID, now: Date, on connection: any SQLConnection
    )
        throws
    {
        let incoming = try connection.query(
            """
            SELECT product_id, quantity FROM basket_lines WHERE shopper_id = \(source.rawValue)
            ORDER BY position, product_id
            """)
        let sourceCode = try connection.queryFirst(
            "SELECT promotion_code FROM baskets WHERE shopper_id = \(source.rawValue)"
        ).flatMap { try $0.decode("promotion_code", as: String?.self) }
        guard !incoming.isEmpty || sourceCode != nil else { return }
        try ensureBasket(for: target, now: now, on: connection)
        for line in incoming {
            let product = try line.decode("product_id", as: Int64.self)
            let quantity = try line.decode("quantity", as: Int64.self)
            try connection.execute(
                """
                INSERT INTO basket_lines (shopper_id, product_id, quantity, position)
                VALUES (\(target.rawValue), \(product), \(quantity), \(nextPosition(for: target)))
                ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity =
                    CASE WHEN basket_lines.quantity + excluded.quantity > 10 THEN 10
                         ELSE basket_lines.quantity + excluded.quantity END
                """)
        }
        if let sourceCode {
            try connection.execute(
                """
                UPDATE baskets SET promotion_code = \(sourceCode)
                WHERE shopper_id = \(target.rawValue) AND promotion_code IS NULL
                """)
        }
        try empty(source, now: now, on: connection)
    }
}
