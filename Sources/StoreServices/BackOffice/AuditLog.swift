import CatalogFiles
import CheckoutKit
import Foundation
import StoreDatabase

/// The audit log as staff read it (docs/BEHAVIOUR.md §13.12): an owner (`read_audit_log`) reads
/// everyone's lines, anyone else only their own; newest first, a page at a time, or all of it as
/// CSV. Reading writes nothing — the log records changes, not who looked at it.
package struct AuditLog: Sendable {
    package let database: StoreDatabase

    package init(database: StoreDatabase) {
        self.database = database
    }

    /// The most lines one page lists.
    package static let maximumPageSize = 200
    /// How many lines the CSV export reads at a time.
    package static let exportPageSize = 1_000

    /// Whose lines `viewer` reads: `nil` for everyone's, else their own id.
    package static func scope(for viewer: StaffRecord) -> StaffID? {
        viewer.role.may(.readAuditLog) ? nil : viewer.id
    }

    /// The newest lines `viewer` may read, before line `before` when paging, at most `limit`, and
    /// whether older ones follow.
    package func entries(
        for viewer: StaffRecord, before: Int64?, limit: Int
    ) async throws -> (entries: [AuditEntry], hasOlder: Bool) {
        let limit = min(max(1, limit), Self.maximumPageSize)
        let entries = try await database.audit.entries(of: Self.scope(for: viewer), before: before, limit: limit + 1)
        return (Array(entries.prefix(limit)), entries.count > limit)
    }

    /// Every line `viewer` may read, newest first, as CSV (``AuditCSV``), read from the database
    /// ``exportPageSize`` lines at a time so the lines themselves are never all held at once.
    package func csv(for viewer: StaffRecord) async throws -> [UInt8] {
        let scope = Self.scope(for: viewer)
        var csv = SpreadsheetCSV(columns: AuditCSV.columns)
        var before: Int64?
        while true {
            let page = try await database.audit.entries(of: scope, before: before, limit: Self.exportPageSize)
            for entry in page { AuditCSV.append(entry, to: &csv) }
            guard page.count == Self.exportPageSize, let last = page.last else { break }
            before = last.id
        }
        return csv.bytes
    }
}

/// The audit log as CSV, written as ``SpreadsheetCSV`` writes every file the back office hands
/// out: a byte-order mark, a header row `id,at,staff,action,subject,before,after`, CRLF line ends,
/// RFC 4180 quotes where needed. `at` is ISO 8601 in UTC with milliseconds. A field someone typed
/// (an email, a product's title in a before/after value) that starts like a formula, or with `'`,
/// is written with a `'` before it, so that a spreadsheet never takes it for one.
package enum AuditCSV {
    package static let columns = ["id", "at", "staff", "action", "subject", "before", "after"]

    /// Appends `entry` as one record.
    package static func append(_ entry: AuditEntry, to csv: inout SpreadsheetCSV) {
        csv.value(String(entry.id))
        csv.value(InstantText.iso8601(entry.at))
        csv.text(entry.actor)
        csv.text(entry.action)
        csv.text(entry.subject)
        csv.text(entry.before ?? "")
        csv.text(entry.after ?? "")
        csv.endRecord()
    }
}
