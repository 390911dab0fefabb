import StoreSQL

extension SQLConnection {
    /// Runs `queries` together (``StoreSQL/SQLConnection/queryEach(_:)``: one round trip on
    /// PostgreSQL, one snapshot in a read) and answers each one's rows, in order. One answer per
    /// statement is checked here, once, so that callers may take them by position.
    func queryTogether(_ queries: [SQLQuery]) throws(DatabaseError) -> [[SQLRow]] {
        let answers = try queryEach(queries)
        guard answers.count == queries.count else {
            throw DatabaseError(
                kind: .misuse, code: "misuse",
                message: "\(queries.count) statements sent together gave \(answers.count) answers")
        }
        return answers
    }
}
