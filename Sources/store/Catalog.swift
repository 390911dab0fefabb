import CatalogFiles
import CheckoutKit
import Foundation
import StoreDatabase
import StoreServices

extension StoreCommand {
    struct CatalogImportOptions: Equatable {
        var database: String
        var file = ""
        /// Show what the file would do and import nothing.
        var dryRun = false
    }

    struct CatalogExportOptions: Equatable {
        var database: String
        /// Where to write the file; standard output when `nil`.
        var destination: String?
    }

    /// `store catalog import FILE [--dry-run]` and `store catalog export [--to FILE]`, after
    /// `catalog`.
    static func parseCatalog(
        _ rest: inout ArraySlice<String>, defaultDatabase: String
    ) throws(UsageError) -> StoreCommand {
        func value(for option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(message: "\(option) needs a value")
            }
            return value
        }
        func checked(_ database: String) throws(UsageError) -> String {
            do { _ = try DatabaseURL(database) } catch { throw UsageError(message: error.description) }
            return database
        }
        switch rest.popFirst() {
        case "import":
            var options = CatalogImportOptions(database: defaultDatabase)
            while let argument = rest.popFirst() {
                switch argument {
                case "-h", "--help": return .help(topic: "catalog")
                case "--database": options.database = try value(for: argument)
                case "--dry-run": options.dryRun = true
                default:
                    guard !argument.hasPrefix("--"), options.file.isEmpty else {
                        throw UsageError(message: "unknown option \(argument) for catalog import")
                    }
                    options.file = argument
                }
            }
            guard !options.file.isEmpty else { throw UsageError(message: "catalog import needs the FILE to import") }
            options.database = try checked(options.database)
            return .importCatalog(options)
        case "export":
            var options = CatalogExportOptions(database: defaultDatabase)
            while let argument = rest.popFirst() {
                switch argument {
                case "-h", "--help": return .help(topic: "catalog")
                case "--database": options.database = try value(for: argument)
                case "--to": options.destination = try value(for: argument)
                default: throw UsageError(message: "unknown option \(argument) for catalog export")
                }
            }
            options.database = try checked(options.database)
            return .exportCatalog(options)
        case "-h", "--help":
            return .help(topic: "catalog")
        default:
            throw UsageError(message: "store catalog: the command is import or export")
        }
    }
}

/// `store catalog import`: prints what the file would do — the counts, each product it adds or
/// changes, each problem by line — then, without `--dry-run` and when the file has no problem,
/// imports it all in one transaction, written to the audit log as done by the command line. A file
/// with a problem imports nothing. Returns the exit status: 0, or 1 when the file has problems.
func importCatalog(_ options: StoreCommand.CatalogImportOptions) async throws -> Int32 {
    let bytes = try readCatalogFile(options.file)
    let database = try await StoreDatabase.open(url: options.database, seed: false)
    let imports = CatalogImport(
        database: database, catalog: nil, currency: StoreConfiguration().shipping.currency, clock: .system)
    do {
        let preview = try await imports.check(bytes)
        print(CatalogReport.preview(preview, file: options.file), terminator: "")
        guard preview.canApply else {
            await database.close()
            FileHandle.standardError.write(
                Data("store: catalog import: the file has problems; nothing was imported\n".utf8))
            return 1
        }
        guard !options.dryRun else {
            await database.close()
            print("dry run: nothing was imported")
            return 0
        }
        let summary = try await imports.apply(bytes, by: .commandLine)
        await database.close()
        print(CatalogReport.summary(summary))
        return 0
    } catch {
        await database.close()
        switch error {
        case let refused as CatalogFileError:
            // The catalog was read again for the import: the file itself has not changed.
            for problem in refused.problems { print(problem.sentence) }
            throw StartError("the file has problems; nothing was imported")
        case CatalogImportError.catalogChanged:
            throw StartError("a product of the file changed while it was being imported; nothing was imported")
        default: throw error
        }
    }
}

/// `store catalog export`: every product, archived too, as a catalog file, to standard output or
/// to `--to FILE`.
func exportCatalog(_ options: StoreCommand.CatalogExportOptions) async throws {
    let database = try await StoreDatabase.open(url: options.database, seed: false)
    let imports = CatalogImport(
        database: database, catalog: nil, currency: StoreConfiguration().shipping.currency, clock: .system)
    let exported: (bytes: [UInt8], products: Int)
    do {
        exported = try await imports.export()
        await database.close()
    } catch {
        await database.close()
        throw error
    }
    guard let destination = options.destination else {
        FileHandle.standardOutput.write(Data(exported.bytes))
        return
    }
    try Data(exported.bytes).write(to: URL(fileURLWithPath: destination), options: .atomic)
    FileHandle.standardError.write(Data("exported \(exported.products) products to \(destination)\n".utf8))
}

/// The file's bytes, at most one more than a catalog file may have (reading it says it is too large).
private func readCatalogFile(_ path: String) throws -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw StartError("cannot read \(path)") }
    defer { try? handle.close() }
    do {
        return Array(try handle.read(upToCount: CatalogCSV.maximumBytes + 1) ?? Data())
    } catch {
        throw StartError("cannot read \(path): \(error.localizedDescription)")
    }
}

/// What `store catalog import` prints.
enum CatalogReport {
    /// The counts, then one line per product added or changed, then every problem.
    static func preview(_ preview: CatalogImportPreview, file: String) -> String {
        let plan = preview.plan
        var text =
            "\(file): \(plan.creations.count) new, \(plan.updates.count) changed, \(plan.unchanged) unchanged"
            + (preview.problems.isEmpty ? "" : "; \(problemCount(preview.problems))") + "\n"
        for creation in plan.creations {
            let details = creation.details
            text +=
                "new      line \(creation.line): \(details.sku) “\(details.title)” in \(details.category), "
                + "\(details.price.amountText), stock \(creation.stock)\(details.active ? "" : ", archived")\n"
        }
        for update in plan.updates {
            let changes = update.changes.map { change in
                change.field == .description
                    ? "description changed" : "\(change.field.rawValue) \(change.from) → \(change.to)"
            }
            text += "changed  line \(update.line): \(update.details.sku): \(changes.joined(separator: ", "))\n"
        }
        for problem in preview.problems { text += problem.sentence + "\n" }
        return text
    }

    /// One line: what the import did.
    static func summary(_ summary: CatalogImportSummary) -> String {
        "imported: \(summary.created) new, \(summary.changed) changed, \(summary.unchanged) unchanged, "
            + "\(summary.stockAdjustments) stock \(summary.stockAdjustments == 1 ? "adjustment" : "adjustments")"
    }

    /// `1 problem`, `7 problems`, or — when the list was cut — `more than 100 problems`.
    private static func problemCount(_ problems: [CatalogFileProblem]) -> String {
        if problems.count > CatalogCSV.maximumProblemsReported { return "more than 100 problems" }
        return problems.count == 1 ? "1 problem" : "\(problems.count) problems"
    }
}
