import Concurrency
import Foundation
import StoreDatabase
import StoreServer

// The main thread stays synchronous: it blocks SIGINT/SIGTERM before any other thread exists (so
// every thread inherits the mask) and later waits for them with sigwait. Async work runs in tasks
// the main thread waits for; it never runs the dispatch main queue, which would reset its mask.
TerminationSignals.block()

let command: StoreCommand
do {
    command = try StoreCommand.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
    fail("\(error.message)\nRun 'store --help' for usage.", code: 64)
}

switch command {
case .help:
    print(StoreCommand.usage)
case .migrate(let url):
    do {
        try waitFor { try await migrate(url: url) }
    } catch {
        fail("cannot prepare the database: \(error)", code: 1)
    }
case .backup(let database, let destination):
    do {
        let report = try waitFor { try await StoreDatabase.backUp(url: database, to: destination) }
        print(
            "backed up \(redacted(database)) to \(destination): integrity \(report.integrity); "
                + "\(report.orders) orders, \(report.customers) customers, \(report.products) products")
        if !report.isSound { exit(1) }
    } catch {
        fail("backup: \(error)", code: 1)
    }
case .addStaff(let options):
    do {
        try waitFor { try await addStaff(options) }
    } catch {
        fail("staff add: \(error)", code: 1)
    }
case .importCatalog(let options):
    let status: Int32
    do {
        status = try waitFor { try await importCatalog(options) }
    } catch {
        fail("catalog import: \(error)", code: 1)
    }
    if status != 0 { exit(status) }
case .exportCatalog(let options):
    do {
        try waitFor { try await exportCatalog(options) }
    } catch {
        fail("catalog export: \(error)", code: 1)
    }
case .shop(let options):
    runShop(options)
case .serve(let options):
    let running: RunningStore
    do {
        running = try waitFor { try await RunningStore.start(options.launch) }
    } catch {
        fail("\(error)", code: 1)
    }
    // Written straight to the file descriptor: whoever waits for this line sees it at once.
    FileHandle.standardOutput.write(Data("listening on \(running.address)\n".utf8))
    let signal = TerminationSignals.wait()
    running.server.beginDraining()
    FileHandle.standardError.write(
        Data("store: signal \(signal): draining — not ready, still serving for \(options.drainSeconds) s\n".utf8))
    if options.drainSeconds > 0 { Thread.sleep(forTimeInterval: TimeInterval(options.drainSeconds)) }
    FileHandle.standardError.write(Data("store: finishing the requests in flight\n".utf8))
    try? waitFor { await running.stop() }
    FileHandle.standardError.write(Data("store: stopped\n".utf8))
}
exit(0)
