/// One open connection to a database, used by one thread at a time.
///
/// Connections are handed to the closures given to ``SQLDatabase/read(_:)`` and
/// ``SQLDatabase/write(_:)``; they must not escape those closures.
public protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func execute(_ query: SQLQuery) throws(DatabaseError) -> Int

    /// Runs a statement and returns all of its rows.
    func query(_ query: SQLQuery) throws(DatabaseError) -> [SQLRow]

    /// Runs several `;`-separated statements with no binds (migrations' DDL).
    func executeScript(_ sql: String) throws(DatabaseError)

    /// Runs a statement whose outcome the caller does not read, inside a write transaction.
    ///
    /// A driver that talks to its database over the network may hold the statement back and send
    /// it together with the next statement whose result is read, or with the commit, in one round
    /// trip (PostgreSQL's pipeline mode). An error the statement raises then surfaces from that
    /// later call, or from the commit, and fails the transaction as a whole: use it only where any
    /// error of the statement is an error of the whole transaction, never for a statement whose
    /// error the caller catches to go another way. Outside a transaction it runs at once.
    func executeDeferred(_ query: SQLQuery) throws(DatabaseError)

    /// Runs several statements, one after another, and returns each one's rows in order. A driver
    /// that talks to its database over the network may send them in one round trip.
    ///
    /// - Throws: the first failing statement's error; the statements after it may not have run.
    func queryEach(_ queries: [SQLQuery]) throws(DatabaseError) -> [[SQLRow]]
}

extension SQLConnection {
    /// Runs the statement at once: a database in the same process gains nothing by waiting.
    public func executeDeferred(_ query: SQLQuery) throws(DatabaseError) {
        try execute(query)
    }

    /// Runs the statements one at a time.
    public func queryEach(_ queries: [SQLQuery]) throws(DatabaseError) -> [[SQLRow]] {
        try queries.map { query throws(DatabaseError) in try self.query(query) }
    }

    /// The first row of a query, or `nil` when it returns none.
    public func queryFirst(_ query: SQLQuery) throws(DatabaseError) -> SQLRow? {
        try self.query(query).first
    }
}
