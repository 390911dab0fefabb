import CheckoutKit
import Foundation
import StoreDatabase

/// Why a fulfilment step was refused before any order was looked at again; nothing was written.
package enum FulfilmentInputError: Error, Hashable, Sendable {
    /// `cancelled` is not a step: cancelling is a full refund and a restock, asked for as such.
    case cancelIsNotAStep
    /// Shipping needs the parcel's tracking number.
    case trackingNumberRequired
    /// Not a tracking number as a carrier prints it: 1–64 letters, digits, spaces and hyphens
    /// (spaces around them aside), and never a card number.
    case invalidTrackingNumber
}

/// The back office's orders (docs/BEHAVIOUR.md §13.8): listed newest first and filtered, read
/// with their timeline, and moved along `unfulfilled → packed → shipped → delivered` one step at
/// a time — each step applied only from the state it names, so a step on an order that moved
/// meanwhile is refused with its new state, never applied twice.
package struct OrderManagement: Sendable {
    package let database: StoreDatabase
    package let clock: StoreClock

    package init(database: StoreDatabase, clock: StoreClock) {
        self.database = database
        self.clock = clock
    }

    /// The most orders one page lists.
    package static let maximumPageSize = 200
    /// The orders a page lists unless asked for another number.
    package static let defaultPageSize = 50
    /// The longest search text, in characters.
    package static let maximumSearchLength = 200

    /// The orders matching `filter`, newest first, `limit` (1–200) of them from `offset`.
    package func orders(_ filter: OrderListFilter, offset: Int, limit: Int) async throws -> OrderSummaryPage {
        var filter = filter
        filter.search = filter.search.map { String($0.prefix(Self.maximumSearchLength)) }
        return try await database.orderAdmin.list(
            filter, offset: max(0, offset), limit: min(max(1, limit), Self.maximumPageSize))
    }

    /// Order `id` with its lines, customer and timeline; `nil` when there is none.
    package func order(_ id: OrderID) async throws -> ManagedOrder? {
        try await database.orderAdmin.order(id)
    }

    /// Marks order `id` as `target` (with `trackingNumber` for `shipped`), from `expected` when the
    /// caller names the state it saw, else from the state the order is in now. Written with its
    /// timeline line and audit line.
    ///
    /// - Throws: ``StoreDatabase/FulfilmentChangeError/notFound`` first; then
    ///   ``FulfilmentInputError`` for a step that cannot be asked for this way (cancelling) or a
    ///   missing or invalid tracking number; then
    ///   ``StoreDatabase/FulfilmentChangeError/invalidTransition(current:)`` when the order's state
    ///   does not allow `target` and ``StoreDatabase/FulfilmentChangeError/movedMeanwhile(current:)``
    ///   when it is no longer in `expected`.
    package func move(
        _ id: OrderID, to target: FulfilmentStatus, trackingNumber: String?, expected: FulfilmentStatus?,
        by staff: StaffRecord
    ) async throws -> ManagedOrder {
        guard let current = try await database.orderAdmin.fulfilment(of: id) else {
            throw FulfilmentChangeError.notFound
        }
        guard let step = try Self.step(to: target, trackingNumber: trackingNumber) else {
            // No step leads back to `unfulfilled`.
            throw FulfilmentChangeError.invalidTransition(current: current)
        }
        return try await database.orderAdmin.move(
            id, from: expected ?? current, to: step, by: staff.actor, now: clock.now())
    }

    /// The step that marks an order `target`, `nil` for `unfulfilled`, which no step leads to.
    /// The tracking number is read only for `shipped`, where an empty or blank one is none.
    ///
    /// - Throws: ``FulfilmentInputError``.
    package static func step(
        to target: FulfilmentStatus, trackingNumber: String?
    ) throws(FulfilmentInputError) -> FulfilmentStep? {
        switch target {
        case .packed: return .pack
        case .delivered: return .deliver
        case .unfulfilled: return nil
        case .cancelled: throw .cancelIsNotAStep
        case .shipped:
            guard let text = trackingNumber, text.contains(where: { $0 != " " }) else {
                throw .trackingNumberRequired
            }
            // Only the characters a tracking number has, so the spaces around it are all that
            // ``TrackingNumber`` trims.
            guard text.unicodeScalars.allSatisfy(Self.trackingNumberScalars.contains),
                let number = TrackingNumber(rawValue: text)
            else { throw .invalidTrackingNumber }
            return .ship(number)
        }
    }

    /// Letters, digits, space and hyphen, in ASCII.
    private static let trackingNumberScalars = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 -".unicodeScalars)

    /// The first instant of `day`, `2025-03-12`, in UTC; `nil` when `day` is not a date written
    /// so (four, two and two digits, a day the proleptic Gregorian calendar has, from year 1).
    package static func startOfDay(_ day: String) -> Date? {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [4, 2, 2],
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            year >= 1, (1...12).contains(month)
        else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...monthLengths[month - 1]).contains(dayOfMonth) else { return nil }
        // Days since 1970-01-01 (H. Hinnant's days_from_civil), exact for every year.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + dayOfMonth - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days) * Self.day)
    }

    /// A day's length in UTC, which has no daylight saving.
    package static let day: TimeInterval = 24 * 60 * 60
}
