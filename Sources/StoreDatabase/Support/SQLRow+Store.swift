import CheckoutKit
import Foundation
import StoreSQL

extension SQLRow {
    /// Money stored as `amountColumn` minor units in the currency named in `currencyColumn`.
    func money(_ amountColumn: String, currency currencyColumn: String = "currency") throws(DatabaseError) -> Money {
        let code = try decode(currencyColumn, as: String.self)
        guard let currency = Currency(code: code) else {
            throw .decoding(column: currencyColumn, expected: "a known currency code")
        }
        return Money(minorUnits: try decode(amountColumn, as: Int64.self), currency: currency)
    }

    /// An instant stored as milliseconds since 1970.
    func date(_ column: String) throws(DatabaseError) -> Date {
        Date(unixMilliseconds: try decode(column, as: Int64.self))
    }

    /// An optional instant stored as milliseconds since 1970.
    func optionalDate(_ column: String) throws(DatabaseError) -> Date? {
        try decode(column, as: Int64?.self).map(Date.init(unixMilliseconds:))
    }
}
