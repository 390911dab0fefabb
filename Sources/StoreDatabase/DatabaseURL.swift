/// Where the store keeps its data: `sqlite:PATH` or `postgres://user[:password]@host:port/dbname`.
public enum DatabaseURL: Hashable, Sendable {
    case sqlite(path: String)
    case postgres(url: String)

    /// The default: an SQLite file under `.store/` in the working directory.
    public static let defaultSQLite = DatabaseURL.sqlite(path: ".store/store.sqlite")

    /// Reads a database URL.
    ///
    /// - Throws: ``DatabaseURLError`` for an empty SQLite path or any other scheme.
    public init(_ text: String) throws(DatabaseURLError) {
        if text.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path.removeFirst(2) }  // also accept sqlite:///abs/path and sqlite://rel
            guard !path.isEmpty else { throw .missingPath }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            throw .unsupportedScheme
        }
    }

    /// The URL with its passwords replaced by `***`, for logs and messages: the one in
    /// `user:password@` and any `password=` query parameter (libpq reads both).
    public var redacted: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url):
            return Self.redactingPasswords(in: url)
        }
    }

    /// Hides every stretch that could be a password, read byte by byte as libpq reads the URL
    /// (compared as Characters, a delimiter followed by a combining mark, `:\u{301}`, would not be
    /// one): `user:password@` in the authority, which ends at the first `/`; the same up to the
    /// first `@` anywhere, in case the password itself holds a `/`; and each `password=` parameter.
    private static func redactingPasswords(in url: String) -> String {
        let bytes = Array(url.utf8)
        // Replace the stretches, overlapping ones as one, from left to right.
        var result: [UInt8] = []
        var position = 0
        for range in hiddenRanges(in: bytes).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound >= position {
                result += bytes[position..<range.lowerBound]
                result += Array("***".utf8)
            }
            position = max(position, range.upperBound)
        }
        result += bytes[position...]
        return String(decoding: result, as: UTF8.self)
    }

    /// The byte ranges of `bytes` that ``redacted`` hides.
    static func hiddenRanges(in bytes: [UInt8]) -> [Range<Int>] {
        var hidden: [Range<Int>] = []
        let separator = Array("://".utf8)
        if let schemeEnd = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) {
            let authority = schemeEnd + separator.count
            let slash = bytes[authority...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            for end in [slash, bytes.endIndex] {
                if let at = bytes[authority..<end].firstIndex(of: UInt8(ascii: "@")),
                    let colon = bytes[authority..<at].firstIndex(of: UInt8(ascii: ":"))
                {
                    hidden.append((colon + 1)..<at)
                }
            }
        }
        let parameter = Array("password=".utf8)
        for index in bytes.indices
        where (bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "&"))
            && bytes[(index + 1)...].starts(with: parameter)
        {
            let value = index + 1 + parameter.count
            hidden.append(value..<(bytes[value...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex))
        }
        return hidden
    }
}

/// Why a database URL was refused.
public enum DatabaseURLError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingPath
    case unsupportedScheme

    public var description: String {
        switch self {
        case .missingPath: "an sqlite: URL needs a file path, e.g. sqlite:.store/store.sqlite"
        case .unsupportedScheme: "the database URL must start with sqlite: or postgres://"
        }
    }
}
