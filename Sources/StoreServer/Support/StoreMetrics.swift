import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import PaymentProvider

/// The store's counters and histograms, written as Prometheus text at `/metrics`
/// (docs/BEHAVIOUR.md §15.4). Labels come from closed sets only — route patterns (never a path),
/// methods, status classes, outcomes — so no id, email or token can reach them.
final class StoreMetrics: Sendable {
    /// Seconds; the same buckets for requests and provider calls.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Histogram: Sendable {
        /// Observations by the first bucket that holds them (the last place: above every bucket);
        /// made cumulative when written out.
        var counts = [Int](repeating: 0, count: StoreMetrics.buckets.count + 1)
        var sum = 0.0
        var total = 0

        mutating func observe(_ seconds: Double) {
            counts[StoreMetrics.buckets.firstIndex { seconds <= $0 } ?? StoreMetrics.buckets.count] += 1
            sum += seconds
            total += 1
        }

        /// The count of each bucket as Prometheus writes it: every observation at or below it.
        var cumulativeCounts: [Int] {
            var running = 0
            return counts.dropLast().map { count in
                running += count
                return running
            }
        }
    }

    /// What one route pattern (or `unmatched`) answered.
    struct RouteRecord: Sendable {
        /// Requests by method and status class (its first digit): a route meets few such pairs,
        /// found by looking through them rather than by hashing.
        var requests: [(method: String, statusClass: Int, count: Int)] = []
        var durations = Histogram()

        mutating func observe(method: String, statusClass: Int, seconds: Double) {
            if let index = requests.firstIndex(where: { $0.statusClass == statusClass && $0.method == method }) {
                requests[index].count += 1
            } else {
                requests.append((method, statusClass, 1))
            }
            durations.observe(seconds)
        }
    }

    struct State: Sendable {
        /// Where each route pattern's (or `unmatched`'s) record lies in `routeRecords`: a request
        /// looks its route up once and counts in place.
        var routeIndex: [String: Int] = [:]
        var routeRecords: [RouteRecord] = []

        /// The records by route pattern, or `unmatched`.
        var routes: [String: RouteRecord] {
            routeIndex.mapValues { routeRecords[$0] }
        }
        var checkouts: [String: Int] = [:]
        var refunds: [String: Int] = [:]
        var provider: [String: Histogram] = [:]
        var providerFailures: [String: Int] = [:]
        var reconciliations = 0
    }

    let startTime = Date()
    private let state = Locked(State())

    /// A method's label: the standard methods by name, any other token a client sent as `other`,
    /// so that made-up methods cannot grow the labels without end.
    static func label(for method: HTTPMethod) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options: method.rawValue
        default: "other"
        }
    }

    /// Counts one answered request from its access-log entry; a route not among `routes` (the
    /// patterns the server answers — the entry holds the path when none matched) is `unmatched`.
    /// This runs for every request: a route seen before is found with one hash of its pattern,
    /// and counted in place.
    func record(_ entry: AccessLogEntry, routes: Set<String>) {
        let (seconds, attoseconds) = entry.duration.components
        let duration = Double(seconds) + Double(attoseconds) / 1e18
        let method = Self.label(for: entry.method)
        let statusClass = entry.status.code / 100
        state.withLock { state in
            let index: Int
            if let known = state.routeIndex[entry.route] {
                index = known
            } else {
                let route = routes.contains(entry.route) ? entry.route : "unmatched"
                if let known = state.routeIndex[route] {
                    index = known
                } else {
                    index = state.routeRecords.count
                    state.routeRecords.append(RouteRecord())
                    state.routeIndex[route] = index
                }
            }
            state.routeRecords[index].observe(method: method, statusClass: statusClass, seconds: duration)
        }
    }

    func checkout(_ outcome: String) { state.withLock { $0.checkouts[outcome, default: 0] += 1 } }
    func refund(_ outcome: String) { state.withLock { $0.refunds[outcome, default: 0] += 1 } }
    func reconciliation() { state.withLock { $0.reconciliations += 1 } }

    func provider(_ operation: String, seconds: Double, failed: Bool) {
        state.withLock { state in
            state.provider[operation, default: Histogram()].observe(seconds)
            if failed { state.providerFailures[operation, default: 0] += 1 }
        }
    }

    /// What is read at each scrape rather than counted.
    struct Gauges: Sendable {
        var unresolvedPayments: Int
        var pendingRefunds: Int
        var databaseWaitingJobs: Int
        /// Round trips to the database server so far; `nil` for SQLite, which has none.
        var databaseRoundTrips: Int? = nil
        /// Commits of SQLite's writer and the writes they carried; `nil` for PostgreSQL.
        var databaseGroupCommits: (commits: Int, writes: Int)? = nil
        /// SQLite's lookups run on their callers' threads and handed to its readers; `nil` for
        /// PostgreSQL, whose reads all cross to its server.
        var databaseLookups: (onCaller: Int, handedOn: Int)? = nil
        /// Whether this server holds its presence lock; `nil` without one (SQLite).
        var presenceHeld: Bool? = nil
        var openConnections: Int
        var requestsInFlight: Int
    }

    /// The Prometheus text exposition (format 0.0.4).
    func render(_ gauges: Gauges) -> String {
        let state = self.state.withLock { $0 }
        var text = ""
        func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let written = labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }.joined(separator: ",")
            text += labels.isEmpty ? "\(name) \(value)\n" : "\(name){\(written)} \(value)\n"
        }
        func histogram(_ name: String, label: String, _ series: [String: Histogram]) {
            for (key, histogram) in series.sorted(by: { $0.key < $1.key }) {
                for (bound, count) in zip(Self.buckets, histogram.cumulativeCounts) {
                    sample("\(name)_bucket", [(label, key), ("le", Self.number(bound))], "\(count)")
                }
                sample("\(name)_bucket", [(label, key), ("le", "+Inf")], "\(histogram.total)")
                sample("\(name)_sum", [(label, key)], Self.number(histogram.sum))
                sample("\(name)_count", [(label, key)], "\(histogram.total)")
            }
        }

        family(
            "store_http_requests_total", "counter", "HTTP requests answered, by route pattern, method and status class."
        )
        let requests = state.routes.flatMap { route, record in
            record.requests.map { (route: route, method: $0.method, statusClass: $0.statusClass, count: $0.count) }
        }
        for request in requests.sorted(by: {
            ($0.route, $0.method, $0.statusClass) < ($1.route, $1.method, $1.statusClass)
        }) {
            sample(
                "store_http_requests_total",
                [("route", request.route), ("method", request.method), ("status_class", "\(request.statusClass)xx")],
                "\(request.count)")
        }
        family(
            "store_http_request_duration_seconds", "histogram",
            "From a request's header fields to its answer queued, by route pattern.")
        histogram("store_http_request_duration_seconds", label: "route", state.routes.mapValues(\.durations))
        family("store_checkouts_total", "counter", "Checkouts by outcome.")
        for (outcome, count) in state.checkouts.sorted(by: { $0.key < $1.key }) {
            sample("store_checkouts_total", [("outcome", outcome)], "\(count)")
        }
        family("store_refunds_total", "counter", "Refund requests by outcome.")
        for (outcome, count) in state.refunds.sorted(by: { $0.key < $1.key }) {
            sample("store_refunds_total", [("outcome", outcome)], "\(count)")
        }
        family(
            "store_payment_provider_request_duration_seconds", "histogram",
            "Calls to the payment provider, by operation.")
        histogram("store_payment_provider_request_duration_seconds", label: "operation", state.provider)
        family(
            "store_payment_provider_failures_total", "counter",
            "Provider calls without a definite answer (unavailable or timed out), by operation.")
        for (operation, count) in state.providerFailures.sorted(by: { $0.key < $1.key }) {
            sample("store_payment_provider_failures_total", [("operation", operation)], "\(count)")
        }
        family("store_unresolved_payment_attempts", "gauge", "Payment attempts still pending.")
        sample("store_unresolved_payment_attempts", [], "\(gauges.unresolvedPayments)")
        family("store_pending_refunds", "gauge", "Refunds still waiting for the provider's answer.")
        sample("store_pending_refunds", [], "\(gauges.pendingRefunds)")
        family("store_reconciliation_runs_total", "counter", "Passes that settled payments and refunds left alone.")
        sample("store_reconciliation_runs_total", [], "\(state.reconciliations)")
        family("store_database_waiting_jobs", "gauge", "Database jobs waiting for a connection.")
        sample("store_database_waiting_jobs", [], "\(gauges.databaseWaitingJobs)")
        if let roundTrips = gauges.databaseRoundTrips {
            family(
                "store_database_round_trips_total", "counter",
                "Round trips to the database server: a statement sent alone, or a pipeline of them.")
            sample("store_database_round_trips_total", [], "\(roundTrips)")
        }
        if let group = gauges.databaseGroupCommits {
            family("store_database_commits_total", "counter", "Durable commits of the database's one writer.")
            sample("store_database_commits_total", [], "\(group.commits)")
            family(
                "store_database_committed_writes_total", "counter",
                "Writes made durable by those commits (several per commit under load: group commit).")
            sample("store_database_committed_writes_total", [], "\(group.writes)")
        }
        if let lookups = gauges.databaseLookups {
            family(
                "store_database_lookups_total", "counter",
                "Reads of a few rows by key: run at once where they were asked (caller), or handed to a reader thread (reader: every lookup connection was in use, or the read met a lock)."
            )
            sample("store_database_lookups_total", [("ran", "caller")], "\(lookups.onCaller)")
            sample("store_database_lookups_total", [("ran", "reader")], "\(lookups.handedOn)")
        }
        if let held = gauges.presenceHeld {
            family(
                "store_presence_held", "gauge",
                "1 while this server holds its presence lock; 0 when its last check found it lost (others may take its pending payments and refunds over)."
            )
            sample("store_presence_held", [], held ? "1" : "0")
        }
        family("store_http_open_connections", "gauge", "HTTP connections open.")
        sample("store_http_open_connections", [], "\(gauges.openConnections)")
        family("store_http_requests_in_flight", "gauge", "HTTP requests being answered.")
        sample("store_http_requests_in_flight", [], "\(gauges.requestsInFlight)")

        let process = ProcessFigures.now()
        family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
        sample("process_resident_memory_bytes", [], "\(process.residentBytes)")
        family("process_cpu_seconds_total", "counter", "User and system CPU time spent, in seconds.")
        sample("process_cpu_seconds_total", [], Self.number(process.cpuSeconds))
        family("process_open_fds", "gauge", "Open file descriptors.")
        sample("process_open_fds", [], "\(process.openDescriptors)")
        family("process_start_time_seconds", "gauge", "When the process started, in seconds since 1970.")
        sample("process_start_time_seconds", [], Self.number(startTime.timeIntervalSince1970))
        return text
    }

    /// A label value as the text format wants it: `\`, `"` and line feeds escaped.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// The process's own figures, read from `/proc` and `getrusage`.
enum ProcessFigures {
    struct Figures {
        var residentBytes: Int
        var cpuSeconds: Double
        var openDescriptors: Int
    }

    static func now() -> Figures {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        var resident = 0
        if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
            let fields = statm.split(separator: " ")
            if fields.count > 1, let pages = Int(fields[1]) { resident = pages * Int(sysconf(Int32(_SC_PAGESIZE))) }
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return Figures(residentBytes: resident, cpuSeconds: cpu, openDescriptors: descriptors)
    }
}

/// A payment provider whose every call is timed into the metrics.
struct MeasuredProvider: PaymentProvider {
    let provider: any PaymentProvider
    let metrics: StoreMetrics

    private func timed<Value>(
        _ operation: String, _ call: () async throws(ProviderError) -> Value
    ) async throws(ProviderError) -> Value {
        let start = ContinuousClock.now
        do {
            let value = try await call()
            metrics.provider(operation, seconds: Self.seconds(since: start), failed: false)
            return value
        } catch {
            metrics.provider(operation, seconds: Self.seconds(since: start), failed: true)
            throw error
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    func charge(_ request: ChargeRequest) async throws(ProviderError) -> ChargeOutcome {
        try await timed("charge") { () async throws(ProviderError) in try await provider.charge(request) }
    }

    func status(ofKey key: String) async throws(ProviderError) -> ChargeStatus {
        try await timed("status") { () async throws(ProviderError) in try await provider.status(ofKey: key) }
    }

    func refund(_ request: RefundRequest) async throws(ProviderError) -> RefundOutcome {
        try await timed("refund") { () async throws(ProviderError) in try await provider.refund(request) }
    }

    func refundStatus(ofKey key: String) async throws(ProviderError) -> RefundStatus {
        try await timed("refund_status") { () async throws(ProviderError) in
            try await provider.refundStatus(ofKey: key)
        }
    }
}
