import CheckoutKit
import Foundation
import StoreCrypto
import StoreSQL

/// Fills a new database with the store's catalog, promotions, demo customers and demo owner.
///
/// Idempotent: rows that exist are left as they are (stock that was sold stays sold), and a demo
/// customer's password is hashed only when the customer is missing.
public enum Seeder {
    /// The parts of the demo data, for a database whose schema predates some of them.
    public struct Parts: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The categories, products and promotions, and the demo customers.
        public static let shop = Parts(rawValue: 1)
        /// The demo owner of the back office.
        public static let staff = Parts(rawValue: 2)
        public static let all: Parts = [.shop, .staff]
    }

    /// Seeds `database` with `parts` of the demo data; returns the number of rows inserted (0 when
    /// everything was there).
    @discardableResult
    public static func seed(
        _ database: any SQLDatabase, currency: Currency = .eur, hasher: PasswordHasher = .interactive,
        now: Date = Date(), parts: Parts = .all
    ) async throws -> Int {
        var inserted = 0
        if parts.contains(.shop) {
            inserted += try await seedShop(database, currency: currency, hasher: hasher, now: now)
        }
        if parts.contains(.staff) { inserted += try await seedStaff(database, hasher: hasher, now: now) }
        return inserted
    }

    private static func seedShop(
        _ database: any SQLDatabase, currency: Currency, hasher: PasswordHasher, now: Date
    ) async throws -> Int {
        var inserted = try await database.write { connection in
            var inserted = 0
            for (position, name) in SeedCatalog.categories.enumerated() {
                inserted += try connection.execute(
                    "INSERT INTO categories (name, position) VALUES (\(name), \(position)) ON CONFLICT (name) DO NOTHING"
                )
            }
            for item in SeedCatalog.items {
                let added = try connection.execute(
                    """
                    INSERT INTO products (id, sku, title, description, category, price_minor, currency, image_path,
                                          rating_tenths, rating_count, stock)
                    VALUES (\(item.id), \(item.sku), \(item.title), \(item.description), \(item.category),
                            \(item.priceCents * currency.minorUnitsPerMajorUnit / 100), \(currency.code),
                            \(item.imagePath), \(item.ratingTenths), \(item.ratingCount), 0)
                    ON CONFLICT (id) DO NOTHING
                    """)
                inserted += added
                if added == 1, item.stock > 0 {
                    // Stock comes only through the ledger: the demo's opening count is its first line.
                    try StockLedger.move(
                        ProductID(item.id), by: item.stock, reason: .counted, note: "Opening stock",
                        actor: .person(.demoData), onlyIfActive: false, now: now, on: connection)
                }
            }
            if connection.dialect == .postgres {
                // The seeded products have their own ids: products added later are numbered after them.
                _ = try connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('products', 'id'), MAX(id)) FROM products
                    HAVING MAX(id) IS NOT NULL
                    """)
            }
            for promotion in SeedCatalog.promotions(currency: currency) {
                inserted += try insert(promotion, on: connection)
            }
            return inserted
        }
        let customers = CustomerRepository(database: database)
        for demo in SeedCatalog.demoCustomers where try await customers.customer(email: demo.email) == nil {
            let facts =
                demo.subscriptionLength.map {
                    SubscriptionFacts(expiresAt: now.addingTimeInterval($0), willAutoRenew: true)
                }
                ?? .none
            do {
                _ = try await customers.create(
                    NewCustomer(
                        email: demo.email, passwordHash: try hasher.hash(demo.password), firstName: demo.firstName,
                        lastName: demo.lastName, subscription: facts), now: now)
                inserted += 1
            } catch let error as DatabaseError where error.kind == .uniqueViolation {
                continue  // another server seeded the same customer meanwhile
            }
        }
        return inserted
    }

    private static func seedStaff(_ database: any SQLDatabase, hasher: PasswordHasher, now: Date) async throws -> Int {
        var inserted = 0
        let staff = StaffRepository(database: database)
        for demo in SeedCatalog.demoStaff where try await staff.staff(email: demo.email) == nil {
            do {
                _ = try await staff.add(
                    email: demo.email, passwordHash: try hasher.hash(demo.password), role: demo.role, by: .demoData,
                    now: now)
                inserted += 1
            } catch StaffChangeError.emailTaken {
                continue  // another server seeded the same member of staff meanwhile
            }
        }
        return inserted
    }

    /// Inserts `promotion` unless its code exists; returns the number of rows inserted.
    @discardableResult
    public static func insert(_ promotion: Promotion, on connection: any SQLConnection) throws -> Int {
        let percent: Int?
        let amountOff: Int64?
        switch promotion.kind {
        case .percentOff(let rate):
            percent = rate.basisPoints / 100
            amountOff = nil
        case .amountOff(let amount):
            percent = nil
            amountOff = amount.minorUnits
        }
        return try connection.execute(
            """
            INSERT INTO promotions (code, kind, percent_off, amount_off_minor, currency, minimum_subtotal_minor,
                                    starts_at, ends_at, usage_limit, times_used)
            VALUES (\(promotion.code.rawValue), \(percent == nil ? "amount_off" : "percent_off"), \(percent), \(amountOff),
                    \(promotion.minimumSubtotal.currency.code), \(promotion.minimumSubtotal.minorUnits),
                    \(promotion.startsAt?.unixMilliseconds), \(promotion.endsAt?.unixMilliseconds),
                    \(promotion.usageLimit), \(promotion.timesUsed))
            ON CONFLICT (code) DO NOTHING
            """)
    }
}
