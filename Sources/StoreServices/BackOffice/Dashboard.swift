import CheckoutKit
import Foundation
import StoreDatabase

/// The dashboard every member of staff sees first (docs/BEHAVIOUR.md §13.11): today's orders and
/// revenue (the UTC day), the orders waiting to be packed, and the active products low on stock
/// (1 to ``CheckoutKit/StockLevel/lowStockThreshold`` units) or sold out.
package struct Dashboard: Sendable {
    package let database: StoreDatabase
    /// The shop's currency: revenue is summed in it.
    package let currency: Currency
    package let clock: StoreClock

    package init(database: StoreDatabase, currency: Currency, clock: StoreClock) {
        self.database = database
        self.currency = currency
        self.clock = clock
    }

    /// The most products each stock list holds; the counts cover them all.
    package static let listLimit = 100

    /// The figures now, and the UTC day they are for.
    package func figures() async throws -> (day: DateInterval, figures: DashboardFigures) {
        let day = Self.utcDay(containing: clock.now())
        let figures = try await database.backOffice.dashboard(
            day: day, currency: currency, lowStockThreshold: StockLevel.lowStockThreshold, listLimit: Self.listLimit)
        return (day, figures)
    }

    /// The UTC day `instant` falls in: from its midnight to the next.
    package static func utcDay(containing instant: Date) -> DateInterval {
        let secondsPerDay = 86_400.0
        let start = (instant.timeIntervalSince1970 / secondsPerDay).rounded(.down) * secondsPerDay
        return DateInterval(start: Date(timeIntervalSince1970: start), duration: secondsPerDay)
    }
}
