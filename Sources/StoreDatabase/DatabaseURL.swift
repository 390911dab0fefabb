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

    /// The URL with any password replaced, for logs and messages.
    public var redacted: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url):
            guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].firstIndex(of: "@") else {
                return url
            }
            let credentials = url[schemeEnd.upperBound..<at]
            guard let colon = credentials.firstIndex(of: ":") else { return url }
            return String(url[..<colon]) + ":***" + String(url[at...])
        }
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
