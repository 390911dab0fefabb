// libFuzzer target: a database URL (from `--database` or STORE_DATABASE_URL) is read or refused
// without a crash, and its redacted form, printed in logs and messages, hides every byte of each
// password as libpq would read it: the `password` of `user:password@` and each `password=` query
// parameter. DatabaseURL.swift is compiled into the target (Fuzz/DatabaseURLs/sources).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDatabaseURLs(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for candidate in [text, "postgres://" + text, "sqlite:" + text] {
        guard let url = try? DatabaseURL(candidate) else { continue }
        let redacted = url.redacted
        switch url {
        case .sqlite(let path):
            check(redacted == "sqlite:" + path, "an SQLite URL is shown as it is")
        case .postgres:
            let bytes = Array(candidate.utf8)
            let hidden = DatabaseURL.hiddenRanges(in: bytes)
            for password in passwordRanges(in: bytes) {
                for index in password {
                    check(
                        hidden.contains { $0.contains(index) },
                        "byte \(index) of \(bytes) belongs to a password and is shown: \(redacted)")
                }
            }
            check(!redacted.utf8.isEmpty, "a redacted URL is never empty")
        }
    }
    return 0
}

/// Where libpq finds passwords: in the authority (after `://`, up to the first `/`), between the
/// first `:` and the first `@`; and in the query (after the first `?`, split on `&`), the value of
/// each `password=` parameter.
func passwordRanges(in url: [UInt8]) -> [Range<Int>] {
    var found: [Range<Int>] = []
    let scheme = Array("://".utf8)
    if let start = (0..<url.count).first(where: { url[$0...].starts(with: scheme) }) {
        let authority = url[(start + scheme.count)...].prefix { $0 != UInt8(ascii: "/") }
        if let at = authority.firstIndex(of: UInt8(ascii: "@")),
            let colon = authority[..<at].firstIndex(of: UInt8(ascii: ":"))
        {
            found.append((colon + 1)..<at)
        }
    }
    if let question = url.firstIndex(of: UInt8(ascii: "?")) {
        let prefix = Array("password=".utf8)
        for parameter in url[(question + 1)...].split(separator: UInt8(ascii: "&")) where parameter.starts(with: prefix)
        {
            found.append((parameter.startIndex + prefix.count)..<parameter.endIndex)
        }
    }
    return found
}
