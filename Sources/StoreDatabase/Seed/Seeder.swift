import CheckoutKit
import Foundation
import StoreCrypto
import StoreSQL

/// Fills a new database with the store's catalog, promotions and demo customers.
///
/// Idempotent: rows that exist are left as they are (stock that was sold stays sold), and a demo
/// customer's password is hashed only when the customer is missing.
public enum Seeder {
    /// Seeds `database`; returns the number of rows inserted (0 when everything was there).
    @discardableResult
    public static func seed(
        _ database: any SQLDatabase, currency: Currency = .eur, hasher: PasswordHasher = .interactive,
        now: Date = Date()
    ) async throws -> Int {
        var inserted = try await database.write { connection in
            var inserted = 0
            for (position, name) in SeedCatalog.categories.enumerated() {
                inserted += try connection.execute(
                    "INSERT INTO categories (name, position) VALUES (\(name), \(position)) ON CONFLICT (name) DO NOTHING"
                )
            }
            for item in SeedCatalog.items {
                inserted += try connection.execute(
                    """
                    INSERT INTO products (id, title, description, category, price_minor, currency, image_path,
                                          rating_tenths, rating_count, stock)
                    VALUES (\(item.id), \(item.title), \(item.description), \(item.category),
                            \(item.priceCents * currency.minorUnitsPerMajorUnit / 100), \(currency.code),
                            \(item.imagePath), \(item.ratingTenths), \(item.ratingCount), \(item.stock))
                    ON CONFLICT (id) DO NOTHING
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
