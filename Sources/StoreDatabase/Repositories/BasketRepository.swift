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
    /// Changes with every change to the lines or the code (0 before the first): a checkout pays
    /// for the basket only while it is still the version that was priced.
    public let version: Int64

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

/// Why a line of ``BasketRepository/setQuantities(_:for:now:)`` could not be set.
public enum BasketLineError: Error, Hashable, Sendable {
    /// There is no product with the line's id.
    case unknownProduct(line: Int)
    /// The product has fewer units in stock than the line asks for.
    case insufficientStock(line: Int, available: Int)
}

/// Each shopper's basket. Every method is scoped to one shopper: no call can reach another's.
public struct BasketRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// The basket of `shopper` (empty when they never added anything).
    public func basket(for shopper: ShopperID) async throws -> StoredBasket {
        try await database.lookup { connection in try Self.basket(for: shopper, on: connection) }
    }

    /// Everything pricing the basket needs, read in one go: the basket, its promotion (if the code
    /// still exists) and, for a signed-in customer, their subscription facts. On PostgreSQL they are
    /// one round trip (``pricingQueries(shopper:customer:)``).
    public func pricingInputs(for shopper: ShopperID, customer: CustomerID?) async throws -> PricingInputs {
        try await database.lookup { connection in
            try Self.pricingInputs(for: shopper, customer: customer, on: connection)
        }
    }

    /// What pricing needs, read on `connection`: on PostgreSQL all at once (one round trip); on
    /// SQLite, in the store's process, where nothing is saved by reading what the basket does not
    /// need, the promotion only for a basket with a code and the customer only for a customer.
    static func pricingInputs(
        for shopper: ShopperID, customer: CustomerID?, on connection: any SQLConnection
    ) throws -> PricingInputs {
        guard connection.dialect == .postgres else {
            let basket = try basket(for: shopper, on: connection)
            let promotion = try basket.promotionCode.flatMap {
                try PromotionRepository.promotion($0, on: connection)
            }
            let subscription = try customer.flatMap { id in
                try connection.queryFirst(
                    "SELECT \(CustomerRepository.columns) FROM customers WHERE id = \(id.rawValue)"
                ).map { try CustomerRepository.record(from: $0).subscription }
            }
            return PricingInputs(basket: basket, promotion: promotion, subscription: subscription)
        }
        return try pricingInputs(
            from: connection.queryEach(
                pricingQueries(shopper: "\(shopper.rawValue)", customer: "\(customer?.rawValue)")))
    }

    /// The statements that read what pricing a basket needs, to be sent together (one round trip
    /// on PostgreSQL): the basket's row, its lines, the promotion its code names and the customer.
    /// `shopper` and `customer` are SQL expressions for their ids — bound values, or subqueries
    /// through a session's token, so that these go in the same round trip as the session's read.
    /// ``pricingInputs(from:)`` reads their answers.
    static func pricingQueries(shopper: SQLQuery, customer: SQLQuery) -> [SQLQuery] {
        basketQueries(shopper: shopper) + [
            """
            SELECT \(PromotionRepository.columns) FROM promotions
            WHERE code = (SELECT promotion_code FROM baskets WHERE shopper_id = \(shopper))
            """,
            "SELECT \(CustomerRepository.columns) FROM customers WHERE id = \(customer)",
        ]
    }

    /// What pricing needs, from the answers to ``pricingQueries(shopper:customer:)``, in order.
    static func pricingInputs(from answers: some Collection<[SQLRow]>) throws -> PricingInputs {
        let answers = Array(answers)
        guard answers.count == 4 else {
            throw DatabaseError(kind: .misuse, code: "misuse", message: "pricing reads four answers")
        }
        return PricingInputs(
            basket: try storedBasket(row: answers[0].first, lines: answers[1]),
            promotion: try answers[2].first.map(PromotionRepository.read),
            subscription: try answers[3].first.map { try CustomerRepository.record(from: $0).subscription })
    }

    /// Sets the quantity of `product` in the basket, adding the line when absent.
    ///
    /// - Returns: `false` when there is no such product, or it is archived (nothing changed).
    public func setQuantity(
        _ quantity: Quantity, of product: ProductID, for shopper: ShopperID, now: Date
    ) async throws
        -> Bool
    {
        try await database.write { connection in
            guard
                try connection.queryFirst("SELECT id FROM products WHERE id = \(product.rawValue) AND active = 1")
                    != nil
            else {
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

    /// Sets the quantities of several lines at once (adding lines that are absent), all or none:
    /// when a product does not exist or has too little stock, nothing changes.
    ///
    /// - Throws: ``BasketLineError`` naming the first line (by its index in `lines`) that cannot be set.
    public func setQuantities(_ lines: [(ProductID, Quantity)], for shopper: ShopperID, now: Date) async throws {
        try await database.write { connection in try Self.setQuantities(lines, for: shopper, now: now, on: connection) }
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

    static func setQuantities(
        _ lines: [(ProductID, Quantity)], for shopper: ShopperID, now: Date, on connection: any SQLConnection
    ) throws {
        guard !lines.isEmpty else { return }
        for (index, (product, quantity)) in lines.enumerated() {
            guard
                let row = try connection.queryFirst(
                    "SELECT stock FROM products WHERE id = \(product.rawValue) AND active = 1")
            else { throw BasketLineError.unknownProduct(line: index) }
            let stock = try row.decode("stock", as: Int.self)
            guard stock >= quantity.value else {
                throw BasketLineError.insufficientStock(line: index, available: stock)
            }
        }
        try ensureBasket(for: shopper, now: now, on: connection)
        for (product, quantity) in lines {
            try connection.execute(
                """
                INSERT INTO basket_lines (shopper_id, product_id, quantity, position)
                VALUES (\(shopper.rawValue), \(product.rawValue), \(quantity.value), \(Self.nextPosition(for: shopper)))
                ON CONFLICT (shopper_id, product_id) DO UPDATE SET quantity = excluded.quantity
                """)
        }
    }

    /// The basket as stored. The version is read *before* the lines: each statement may see a newer
    /// state than the one before it (PostgreSQL's read committed), so the lines are at least as new
    /// as the version, and a checkout that priced them finds the version changed if they were not
    /// the same basket.
    static func basket(for shopper: ShopperID, on connection: any SQLConnection) throws -> StoredBasket {
        // The basket's row and its lines in one round trip.
        let answers = try connection.queryEach(basketQueries(shopper: "\(shopper.rawValue)"))
        return try storedBasket(row: answers.first?.first, lines: answers.last ?? [])
    }

    /// The basket's row and its lines, for `shopper` (an SQL expression for the id).
    private static func basketQueries(shopper: SQLQuery) -> [SQLQuery] {
        [
            "SELECT promotion_code, version FROM baskets WHERE shopper_id = \(shopper)",
            // Unordered: the few lines are put in order here (``storedBasket(row:lines:)``), which
            // spares SQLite a temporary B-tree for every read of a basket.
            """
            SELECT l.quantity, l.position, \(CatalogRepository.productColumns)
            FROM basket_lines l JOIN products p ON p.id = l.product_id
            WHERE l.shopper_id = \(shopper)
            """,
        ]
    }

    /// The basket from the answers to ``basketQueries(shopper:)``: its row (none before the first
    /// change) and its lines.
    private static func storedBasket(row basket: SQLRow?, lines rows: [SQLRow]) throws -> StoredBasket {
        let code = try basket?.decode("promotion_code", as: String?.self).flatMap(PromotionCode.init(rawValue:))
        let version: Int64 = try basket?.decode("version") ?? 0
        // In the order the shopper added them (a product's id breaks a tie).
        let lines = try rows.map { row in
            guard let quantity = Quantity(try row.decode("quantity", as: Int.self)) else {
                throw DatabaseError.decoding(column: "quantity", expected: "a quantity from 1 to 10")
            }
            let line = StoredBasket.Line(product: try CatalogRepository.product(from: row), quantity: quantity)
            return (position: try row.decode("position", as: Int64.self), line: line)
        }.sorted { ($0.position, $0.line.product.id.rawValue) < ($1.position, $1.line.product.id.rawValue) }
        return StoredBasket(lines: lines.map(\.line), promotionCode: code, version: version)
    }

    /// Makes sure the shopper has a basket row and counts a change to it (the caller is about to
    /// change its lines or code).
    static func ensureBasket(for shopper: ShopperID, now: Date, on connection: any SQLConnection) throws {
        try connection.execute(
            """
            INSERT INTO baskets (shopper_id, promotion_code, updated_at, version)
            VALUES (\(shopper.rawValue), NULL, \(now.unixMilliseconds), 1)
            ON CONFLICT (shopper_id) DO UPDATE SET updated_at = excluded.updated_at, version = baskets.version + 1
            """)
    }

    /// Counts a change to the shopper's basket.
    static func touch(_ shopper: ShopperID, now: Date, on connection: any SQLConnection) throws {
        try connection.execute(
            """
            UPDATE baskets SET updated_at = \(now.unixMilliseconds), version = version + 1
            WHERE shopper_id = \(shopper.rawValue)
            """)
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
            UPDATE baskets SET promotion_code = NULL, updated_at = \(now.unixMilliseconds), version = version + 1
            WHERE shopper_id = \(shopper.rawValue)
            """)
    }

    /// Empties `shopper`'s basket — its lines and its code — expecting it still at `version`, the
    /// one an attempt was priced from (`store_expect`, PostgreSQL only: ``Schema/version13``); for a
    /// write that reads no answer before its `COMMIT`. At another version the transaction aborts,
    /// and the caller takes ``takeOut(_:promotion:from:pricedVersion:currentVersion:now:on:)``.
    static func takeOutWhole(
        from shopper: ShopperID, version: Int64, now: Date, on connection: any SQLConnection
    ) throws {
        try connection.executeDeferred(
            .expectingOneRow(
                """
                UPDATE baskets SET promotion_code = NULL, updated_at = \(now.unixMilliseconds), version = version + 1
                WHERE shopper_id = \(shopper.rawValue) AND version = \(version)
                RETURNING version
                """, "the basket as priced"))
        try connection.executeDeferred("DELETE FROM basket_lines WHERE shopper_id = \(shopper.rawValue)")
    }

    /// Takes paid `lines` out of the basket. When the basket is still the version that was priced
    /// (`pricedVersion`), it holds exactly those lines: it is emptied. Otherwise each paid line's
    /// quantity comes off (the line goes when nothing is left), so what was added meanwhile stays,
    /// and the code goes when no line is left or when it is `promotion`, the one the order used.
    ///
    /// - Parameter currentVersion: the basket's version now, read by the caller in this transaction
    ///   with the basket's row locked (PostgreSQL) or under the one writer (SQLite); `nil` when the
    ///   shopper has no basket.
    static func takeOut(
        _ lines: [OrderLine], promotion: PromotionCode?, from shopper: ShopperID, pricedVersion: Int64,
        currentVersion: Int64?, now: Date, on connection: any SQLConnection
    ) throws {
        if currentVersion == pricedVersion {
            try connection.executeDeferred(
                """
                UPDATE baskets SET promotion_code = NULL, updated_at = \(now.unixMilliseconds), version = version + 1
                WHERE shopper_id = \(shopper.rawValue)
                """)
            try connection.executeDeferred("DELETE FROM basket_lines WHERE shopper_id = \(shopper.rawValue)")
            return
        }
        for line in lines {
            try connection.executeDeferred(
                """
                DELETE FROM basket_lines
                WHERE shopper_id = \(shopper.rawValue) AND product_id = \(line.productID.rawValue)
                  AND quantity <= \(line.quantity)
                """)
            try connection.executeDeferred(
                """
                UPDATE basket_lines SET quantity = quantity - \(line.quantity)
                WHERE shopper_id = \(shopper.rawValue) AND product_id = \(line.productID.rawValue)
                """)
        }
        try connection.executeDeferred(
            """
            UPDATE baskets
            SET promotion_code = CASE
                    WHEN promotion_code = \(promotion?.rawValue) THEN NULL
                    WHEN NOT EXISTS (SELECT 1 FROM basket_lines WHERE shopper_id = \(shopper.rawValue)) THEN NULL
                    ELSE promotion_code END,
                updated_at = \(now.unixMilliseconds), version = version + 1
            WHERE shopper_id = \(shopper.rawValue)
            """)
    }

    /// Adds the lines of `source`'s basket to `target`'s (each line's quantities merged by
    /// `Quantity.merged(with:)`, which caps them), carries the code over when `target` has none,
    /// and empties `source`'s basket. Returns the products whose merged quantity was capped.
    @discardableResult
    static func merge(
        from source: ShopperID, into target: ShopperID, now: Date, on connection: any SQLConnection
    ) throws -> [ProductID] {
        let incoming = try connection.query(
            """
            SELECT product_id, quantity FROM basket_lines WHERE shopper_id = \(source.rawValue)
            ORDER BY position, product_id
            """)
        let sourceCode = try connection.queryFirst(
            "SELECT promotion_code FROM baskets WHERE shopper_id = \(source.rawValue)"
        ).flatMap { try $0.decode("promotion_code", as: String?.self) }
        guard !incoming.isEmpty || sourceCode != nil else { return [] }
        try ensureBasket(for: target, now: now, on: connection)
        var existing: [Int64: Quantity] = [:]
        for row in try connection.query(
            "SELECT product_id, quantity FROM basket_lines WHERE shopper_id = \(target.rawValue)")
        {
            existing[try row.decode("product_id", as: Int64.self)] = try storedQuantity(row)
        }
        var capped: [ProductID] = []
        for line in incoming {
            let product = try line.decode("product_id", as: Int64.self)
            let quantity = try storedQuantity(line)
            if let current = existing[product] {
                let merged = current.merged(with: quantity)
                if merged.wasCapped { capped.append(ProductID(product)) }
                try connection.execute(
                    """
                    UPDATE basket_lines SET quantity = \(merged.quantity.value)
                    WHERE shopper_id = \(target.rawValue) AND product_id = \(product)
                    """)
            } else {
                try connection.execute(
                    """
                    INSERT INTO basket_lines (shopper_id, product_id, quantity, position)
                    VALUES (\(target.rawValue), \(product), \(quantity.value), \(nextPosition(for: target)))
                    """)
            }
        }
        if let sourceCode {
            try connection.execute(
                """
                UPDATE baskets SET promotion_code = \(sourceCode)
                WHERE shopper_id = \(target.rawValue) AND promotion_code IS NULL
                """)
        }
        try empty(source, now: now, on: connection)
        return capped
    }

    /// A stored line's quantity, which the schema keeps in range.
    private static func storedQuantity(_ row: SQLRow) throws -> Quantity {
        let value = try row.decode("quantity", as: Int.self)
        guard let quantity = Quantity(value) else {
            throw DatabaseError(kind: .other, code: "quantity", message: "a stored quantity is out of range")
        }
        return quantity
    }
}
