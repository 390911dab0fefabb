import CheckoutKit
import Foundation
import PostgresDriver
import SQLiteDriver
import StoreCrypto
import StoreSQL

/// The store's database: one of the two backends, migrated and seeded, with its repositories.
public struct StoreDatabase: Sendable {
    /// The backend, for repositories and for tests that read raw tables.
    public let sql: any SQLDatabase
    /// This server's presence, on a PostgreSQL database shared by several servers: the pending
    /// attempts and refunds it works on carry its key, so that others may take them over as soon
    /// as it is gone. `nil` on SQLite, and for callers that never hold one (commands, tools).
    public let presence: ServerPresence?

    public init(sql: any SQLDatabase, presence: ServerPresence? = nil) {
        self.sql = sql
        self.presence = presence
    }

    /// This database, with the pending attempts and refunds taken from now on marked as held by
    /// `presence`. ``close()`` gives the presence up too.
    public func present(_ presence: ServerPresence?) -> StoreDatabase {
        StoreDatabase(sql: sql, presence: presence)
    }

    public var catalog: CatalogRepository { CatalogRepository(database: sql) }
    public var promotions: PromotionRepository { PromotionRepository(database: sql) }
    public var customers: CustomerRepository { CustomerRepository(database: sql) }
    public var sessions: SessionRepository { SessionRepository(database: sql) }
    public var baskets: BasketRepository { BasketRepository(database: sql) }
    public var payments: PaymentRepository { PaymentRepository(database: sql, holder: presence?.holder) }
    public var orders: OrderRepository { OrderRepository(database: sql) }
    public var refunds: RefundRepository { RefundRepository(database: sql, holder: presence?.holder) }
    public var analytics: AnalyticsRepository { AnalyticsRepository(database: sql) }
    public var housekeeping: HousekeepingRepository { HousekeepingRepository(database: sql) }
    public var staff: StaffRepository { StaffRepository(database: sql) }
    public var audit: AuditRepository { AuditRepository(database: sql) }
    public var products: ProductRepository { ProductRepository(database: sql) }
    public var backOffice: BackOfficeRepository { BackOfficeRepository(database: sql) }
    public var orderAdmin: OrderAdminRepository { OrderAdminRepository(database: sql) }
    public var catalogImport: CatalogImportRepository { CatalogImportRepository(database: sql) }
    public var productImages: ProductImageRepository { ProductImageRepository(database: sql) }

    /// Whether every migration this build knows is applied (a read, answered by the database).
    public func schemaIsCurrent() async throws -> Bool {
        let applied = Set(try await Migrator.appliedVersions(sql))
        return Schema.migrations.allSatisfy { applied.contains($0.version) }
    }

    /// Opens the database at `url`, applies pending migrations and, when `seed` is set, seeds it.
    ///
    /// SQLite files are opened in WAL mode with `synchronous=FULL` and foreign keys on (the driver
    /// reads the settings back and refuses a database that does not honour them); the file's
    /// directory is created if missing.
    ///
    /// - Parameter poolSize: how many connections a PostgreSQL pool holds (each server process has
    ///   its own pool).
    public static func open(
        url: String, seed: Bool = true, currency: Currency = .eur, hasher: PasswordHasher = .interactive,
        now: Date = Date(), poolSize: Int = 8
    ) async throws -> StoreDatabase {
        let database = try await openUnmigrated(url: url, poolSize: poolSize)
        do {
            try await Migrator.migrate(database.sql, now: now)
            if seed { try await Seeder.seed(database.sql, currency: currency, hasher: hasher, now: now) }
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Opens the database at `url` without touching its schema.
    public static func openUnmigrated(url: String, poolSize: Int = 8) async throws -> StoreDatabase {
        switch try DatabaseURL(url) {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return StoreDatabase(sql: try await SQLiteDatabase.open(path: path))
        case .postgres(let url):
            return StoreDatabase(
                sql: try await PostgresDatabase(
                    url: url, configuration: PostgresDatabase.Configuration(poolSize: poolSize)))
        }
    }

    /// Where the sandbox payment provider keeps its ledger for the store database at `url`: a
    /// sibling SQLite file, or the same PostgreSQL database (the ledger's own table, reached through
    /// connections of its own) so that every server of a fleet shares it. Open it with
    /// ``openUnmigrated(url:poolSize:)``; the provider creates its table itself.
    ///
    /// - Throws: ``DatabaseURLError`` when `url` is not a database URL.
    public static func defaultLedgerURL(forStore url: String) throws(DatabaseURLError) -> String {
        switch try DatabaseURL(url) {
        case .sqlite(let path): return "sqlite:\(path).sandbox-provider"
        case .postgres(let url): return url
        }
    }

    /// Finishes queued work and closes every connection, the presence's last.
    public func close() async {
        await sql.close()
        await presence?.close()
    }
}
