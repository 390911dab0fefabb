import CheckoutKit
import Foundation
import StoreSQL

/// Typed analytics events, kept as a name and a small JSON object of properties.
public struct AnalyticsRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    public func record(_ event: AnalyticsEvent, at date: Date) async throws {
        try await database.write { connection in try Self.insert(event, at: date, on: connection) }
    }

    /// How many events named `name` were recorded with exactly `properties`.
    public func count(named name: String, properties: [String: String]) async throws -> Int {
        let json = Self.json(properties)
        return try await database.read { connection in
            try connection.queryFirst(
                "SELECT COUNT(*) AS n FROM analytics_events WHERE name = \(name) AND properties = \(json)"
            )?.decode("n", as: Int.self) ?? 0
        }
    }

    static func insert(_ event: AnalyticsEvent, at date: Date, on connection: any SQLConnection) throws {
        try connection.executeDeferred(
            """
            INSERT INTO analytics_events (name, properties, occurred_at)
            VALUES (\(event.name), \(json(event.properties)), \(date.unixMilliseconds))
            """)
    }

    /// The properties as a JSON object with sorted keys, so equal events store equal text.
    static func json(_ properties: [String: String]) -> String {
        let fields = properties.sorted { $0.key < $1.key }.map { "\(quoted($0.key)):\(quoted($0.value))" }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// A JSON string literal.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case let control where control.value < 0x20: result += String(format: "\\u%04x", control.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
