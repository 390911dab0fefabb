import CheckoutKit
import Foundation

/// The JSON settings the server and the client share.
///
/// Field names are spelled out in each type's `CodingKeys` (snake_case), so these coders need no
/// key strategy; they keep slashes unescaped (image paths) and sort keys so that equal values
/// always encode to equal bytes.
public enum StoreJSON {
    /// One shared encoder with the store's settings (encoders are safe to share; never change it).
    public static let encoder = makeEncoder()
    /// One shared decoder with the store's settings (never change it).
    public static let decoder = makeDecoder()

    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        JSONDecoder()
    }

    /// Instants on the wire: ISO 8601 in UTC with milliseconds, `2026-12-02T12:08:30.123Z`.
    public static let timestampStyle = InstantText.style

    /// `date` to the nearest millisecond (``CheckoutKit/InstantText``).
    public static func timestamp(_ date: Date) -> String {
        InstantText.iso8601(date)
    }

    /// The instant an ISO 8601 timestamp (with or without fractions of a second) names, or `nil`.
    public static func date(_ text: String) -> Date? {
        if let date = try? timestampStyle.parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    static func date<Key: CodingKey>(
        _ text: String, forKey key: Key, in container: KeyedDecodingContainer<Key>
    ) throws -> Date {
        if let date = Self.date(text) { return date }
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "expected an ISO 8601 timestamp")
    }
}
