import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase
import StoreSQL
import StoreTestSupport
import Testing

/// Proof by reading the raw tables (and, on SQLite, the raw files) that no password or session
/// token is stored in clear.
@Suite("No secret is stored in clear") struct SecretsAtRestTests {
    static let secrets = ["pro-demo-password", "free-demo-password"]

    /// Every text and blob value in every table of the store's schema.
    static func everyStoredValue(_ database: StoreDatabase) async throws -> [SQLValue] {
        try await database.sql.read { connection in
            let tables: [String]
            switch connection.dialect {
            case .sqlite:
                tables = try connection.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ).map { try $0.decode("name") }
            case .postgres:
                tables = try connection.query(
                    """
                    SELECT table_name AS name FROM information_schema.tables
                    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                    """
                ).map { try $0.decode("name") }
            }
            #expect(tables.contains("customers") && tables.contains("sessions"))
            var values: [SQLValue] = []
            for table in tables {
                for row in try connection.query("SELECT * FROM \(unsafeSQL: table)") { values += row.values }
            }
            return values
        }
    }

    static func contains(_ values: [SQLValue], _ secret: String) -> Bool {
        let bytes = Array(secret.utf8)
        return values.contains { value in
            switch value {
            case .text(let text): text.contains(secret)
            case .blob(let blob):
                blob.count >= bytes.count
                    && (0...(blob.count - bytes.count)).contains { Array(blob[$0..<$0 + bytes.count]) == bytes }
            default: false
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func passwordsAndTokensAreOnlyStoredHashed(backend: Backend) async throws {
        try await withStoreDatabase(backend) { database in
            let token = SecretToken.generate()
            let customer = try #require(try await database.customers.customer(email: "pro@onlinestore.test"))
            _ = try await database.sessions.createCustomerSession(
                tokenHash: token.hash, customer: customer.id, previous: nil, now: testNow,
                expiresAt: testNow.addingTimeInterval(60))
            #expect(customer.passwordHash.hasPrefix("$argon2id$"))

            let values = try await Self.everyStoredValue(database)
            for secret in Self.secrets + [token.text] {
                #expect(!Self.contains(values, secret), "found a secret in clear")
            }
            #expect(Self.contains(values, "pro@onlinestore.test"))  // the scan does see stored text
        }
    }

    @Test func theSQLiteFilesHoldNoSecretInClear() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-secrets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let token = SecretToken.generate()
        let database = try await StoreDatabase.open(url: "sqlite:\(path)", hasher: .minimal)
        let customer = try #require(try await database.customers.customer(email: "free@onlinestore.test"))
        _ = try await database.sessions.createCustomerSession(
            tokenHash: token.hash, customer: customer.id, previous: nil, now: testNow,
            expiresAt: testNow.addingTimeInterval(60))
        var files: [Data] = []
        for suffix in ["", "-wal"] {
            if let data = FileManager.default.contents(atPath: path + suffix) { files.append(data) }
        }
        #expect(!files.isEmpty)
        for secret in Self.secrets + [token.text] {
            #expect(!files.contains { $0.range(of: Data(secret.utf8)) != nil }, "found a secret in the database files")
        }
        #expect(files.contains { $0.range(of: Data("free@onlinestore.test".utf8)) != nil })
        await database.close()
    }
}
