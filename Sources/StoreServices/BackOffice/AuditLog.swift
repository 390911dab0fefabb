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
        var out = AuditCSV.header
        var before: Int64?
        while true {
            let page = try await database.audit.entries(of: scope, before: before, limit: Self.exportPageSize)
            for entry in page { AuditCSV.append(entry, to: &out) }
            guard page.count == Self.exportPageSize, let last = page.last else { break }
            before = last.id
        }
        return out
    }
}

/// The audit log as CSV: UTF-8 with a byte-order mark (so that spreadsheets read accents right), a
/// header row `id,at,staff,action,subject,before,after`, CRLF line ends, RFC 4180 quotes around a
/// field that holds a comma, a quote or a line break (quotes inside doubled). `at` is ISO 8601 in
/// UTC with milliseconds. A field that starts with `=`, `+`, `-`, `@`, a tab or a carriage return
/// is written with a `'` before it, so that a spreadsheet never takes what someone typed (an
/// email, a product's title in a before/after value) for a formula.
package enum AuditCSV {
    package static let columns = ["id", "at", "staff", "action", "subject", "before", "after"]

    /// The byte-order mark and the header row.
    package static var header: [UInt8] {
        [0xEF, 0xBB, 0xBF] + Array(columns.joined(separator: ",").utf8) + [0x0D, 0x0A]
    }

    /// Appends `entry` as one record.
    package static func append(_ entry: AuditEntry, to out: inout [UInt8]) {
        let fields = [
            String(entry.id), InstantText.iso8601(entry.at), entry.actor, entry.action, entry.subject,
            entry.before ?? "", entry.after ?? "",
        ]
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendField(protected(field), to: &out)
        }
        out.append(contentsOf: [0x0D, 0x0A])
    }

    /// The characters a spreadsheet may take as the start of a formula.
    package static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` with a `'` before it when it starts like a formula.
    package static func protected(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    private static func appendField(_ text: String, to out: inout [UInt8]) {
        let bytes = text.utf8
        let needsQuotes = bytes.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A
        }
        guard needsQuotes else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { out.append(byte) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}
