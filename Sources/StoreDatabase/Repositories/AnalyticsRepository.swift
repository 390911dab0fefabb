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
        // Written as bytes, then made a string once: a checkout's event is written on the writer's
        // thread, where the fields joined from interpolated strings took 14 k instructions.
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(properties.reduce(2) { $0 + $1.key.utf8.count + $1.value.utf8.count + 6 })
        for (index, field) in properties.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONText.append(field.key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONText.append(field.value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
