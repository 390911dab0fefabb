import StoreSQL

/// Maps PostgreSQL's SQLSTATE codes to ``DatabaseError/Kind``.
enum PostgresErrorMapping {
    /// The code used when a connection could not be opened (`sqlclient_unable_to_establish_sqlconnection`).
    static let connectCode = "08001"
    /// The code used when an open connection broke and the server sent no SQLSTATE (`connection_failure`).
    static let brokenConnectionCode = "08006"
    /// The code used for an error raised by libpq itself, which carries no SQLSTATE.
    static let clientCode = "libpq"

    /// The kind of error a SQLSTATE stands for.
    static func kind(forSQLState state: String) -> DatabaseError.Kind {
        switch state {
        case "40001": .serializationFailure
        case "40P01": .deadlock
        case "23505": .uniqueViolation
        case "23503": .foreignKeyViolation
        case "23514": .checkViolation
        case "23502": .notNullViolation
        case "53100", "58030": .storageFailure  // disk_full, io_error
        case "55P03": .busy
        case "SX001": .expectationFailed  // the store's store_expect
        default: state.hasPrefix("08") ? .connectionFailed : .other
        }
    }

    /// The message to report for a server error: its primary message, with quoted input values
    /// removed from data exceptions (class `22`, e.g. `invalid input syntax for type bigint: "…"`),
    /// whose primary message quotes the offending bound value.
    static func reportedMessage(primary: String, state: String) -> String {
        guard state.hasPrefix("22") else { return primary }
        var result = ""
        var insideQuotes = false
        for character in primary {
            if character == "\"" {
                if !insideQuotes { result += "\"…\"" }
                insideQuotes.toggle()
            } else if !insideQuotes {
                result.append(character)
            }
        }
        return result
    }

    /// The first line of a libpq message, without the severity prefix and surrounding whitespace.
    ///
    /// libpq's own messages (connection failures) can span several lines of hints; server errors
    /// formatted by libpq carry `DETAIL:` lines that may quote values. Only the first line is kept.
    static func firstLine(of message: String) -> String {
        let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true)
        var line = lines.first.map(String.init) ?? ""
        for prefix in ["ERROR:", "FATAL:", "PANIC:"] where line.hasPrefix(prefix) {
            line.removeFirst(prefix.count)
        }
        return line.trimmingWhitespace()
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
