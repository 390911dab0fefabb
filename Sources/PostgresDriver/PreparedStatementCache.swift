import StoreSQL

/// The statements one connection has prepared on the server, by SQL text and parameter types.
///
/// Preparing once saves the server from parsing and planning every execution. Measured on a 2-core
/// machine against PostgreSQL 15 over loopback (`StatementCacheBenchmark`): primary-key lookups
/// went from about 11–13k to 25–31k per second, single-row autocommit updates from 3.9–4.9k to
/// 5.3–6.3k per second; a join-heavy query, dominated by execution, gained a few percent.
///
/// Names are never reused on a connection (`s1`, `s2`, …), so a statement forgotten while the
/// server still holds it cannot collide with a new one. The cache only grows up to its capacity;
/// past that, new SQL texts run unprepared (the store's SQL is a fixed, small set).
struct PreparedStatementCache {
    private struct Key: Hashable {
        let text: StatementText
        let types: [UInt32]

        init(sql: String, types: [UInt32]) {
            text = StatementText(sql)
            self.types = types
        }
    }

    let capacity: Int
    private var names: [Key: String] = [:]
    private var staleNames: [String] = []
    private var counter = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var isEnabled: Bool { capacity > 0 }

    func name(for sql: String, types: [UInt32]) -> String? {
        names[Key(sql: sql, types: types)]
    }

    /// A fresh statement name, or `nil` when the cache is full.
    mutating func newName() -> String? {
        guard names.count < capacity else { return nil }
        counter += 1
        return "s\(counter)"
    }

    mutating func insert(name: String, sql: String, types: [UInt32]) {
        names[Key(sql: sql, types: types)] = name
    }

    /// Forgets a statement the server still holds; its name is handed out by ``takeStaleNames()``.
    mutating func remove(sql: String, types: [UInt32]) {
        if let name = names.removeValue(forKey: Key(sql: sql, types: types)) { staleNames.append(name) }
    }

    /// Forgets a statement the server never prepared (its preparation failed or was skipped).
    mutating func forget(sql: String, types: [UInt32]) {
        names.removeValue(forKey: Key(sql: sql, types: types))
    }

    /// Forgets everything, for a new server connection (which holds no prepared statements).
    mutating func removeAll() {
        names.removeAll()
        staleNames.removeAll()
    }

    mutating func takeStaleNames() -> [String] {
        defer { staleNames.removeAll() }
        return staleNames
    }
}
