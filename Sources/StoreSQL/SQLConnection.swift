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
}

extension SQLConnection {
    /// The first row of a query, or `nil` when it returns none.
    public func queryFirst(_ query: SQLQuery) throws(DatabaseError) -> SQLRow? {
        try self.query(query).first
    }
}
