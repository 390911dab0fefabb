/// A `postgres://` or `postgresql://` connection URL, and what must never be shown of it.
struct PostgresURL {
    /// The URL exactly as given; handed to libpq, never shown.
    let string: String

    /// Accepts only URLs with a PostgreSQL scheme: libpq would otherwise take any string as
    /// `key=value` settings or a bare database name, and fill the gaps from the environment.
    init?(_ string: String) {
        guard string.hasPrefix("postgres://") || string.hasPrefix("postgresql://") else { return nil }
        self.string = string
    }

    /// Every spelling of a password the URL may carry (`user:password@` and `?password=`), raw and
    /// percent-decoded, longest first, so that each can be cut out of a message.
    ///
    /// The parse is deliberately lenient: it must find the password even in a URL libpq rejects.
    var secrets: [String] {
        guard let colon = string.firstIndex(of: ":") else { return [] }
        let rest = string[colon...].dropFirst(3)  // "://", checked by init
        var candidates: [Substring] = []

        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            candidates.append(authority[authority.index(after: colon)..<at])
        }
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let key = pair[..<equals].lowercased()
                if key == "password" || key == "sslpassword" {
                    candidates.append(pair[pair.index(after: equals)...])
                }
            }
        }

        var secrets: Set<String> = []
        for candidate in candidates where !candidate.isEmpty {
            secrets.insert(String(candidate))
            if let decoded = Self.percentDecoded(candidate), !decoded.isEmpty { secrets.insert(decoded) }
        }
        return secrets.sorted { $0.count > $1.count }
    }

    /// `message` with every spelling of the URL's password replaced by `********`.
    func redacting(_ message: String) -> String {
        var result = message
        for secret in secrets {
            result = result.replacingEvery(secret, with: "********")
        }
        return result
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexDigit), let low = iterator.next().flatMap(hexDigit) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    /// Replaces every non-overlapping occurrence of `target` (compared as Unicode scalars).
    func replacingEvery(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        let scalars = Array(unicodeScalars)
        let needle = Array(target.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if index + needle.count <= scalars.count, scalars[index..<index + needle.count].elementsEqual(needle) {
                result.append(contentsOf: replacement.unicodeScalars)
                index += needle.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }
}
