import StoreSQL

extension SQLQuery {
    /// `query`, expected to answer exactly one row: the statement answers `true`, or raises
    /// ``StoreSQL/DatabaseError/Kind/expectationFailed`` ("expected `what`") and aborts the
    /// transaction. PostgreSQL only (`store_expect`, ``Schema/version13``), for writes that send
    /// every statement with their `COMMIT` and read no answer between them. `query` may change
    /// rows (`UPDATE … RETURNING`) or lock them (`SELECT … FOR UPDATE`).
    static func expectingOneRow(_ query: SQLQuery, _ what: String) -> SQLQuery {
        "WITH answered AS (\(query)) SELECT store_expect(count(*) = 1, \(what)) FROM answered"
    }
}
