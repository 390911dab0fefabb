import CheckoutKit
import Concurrency
import StoreDatabase

/// The catalog as every face reads it: a snapshot of the products and categories, so reading never
/// waits on the database.
///
/// The snapshot is read again from the database every ``StoreConfiguration/catalogRefreshInterval``
/// (so stock sold through another server shows up within that time) and soon after this server
/// changes stock. Readers take the current snapshot under a lock held for a pointer copy. A face
/// that keeps something derived from it (the API's encoded documents) builds it in ``onChange(_:)``,
/// before the new snapshot is shown.
package final class Catalog: Sendable {
    /// One consistent view of the catalog.
    package struct Snapshot: Sendable {
        /// Counts the snapshots made: what is derived from one can tell when it was replaced.
        package var generation = 0
        package var products: [Product] = []
        package var categories: [String] = []

        package init(generation: Int = 0, products: [Product] = [], categories: [String] = []) {
            self.generation = generation
            self.products = products
            self.categories = categories
        }

        /// The product `id`, if the catalog has it.
        package func product(_ id: ProductID) -> Product? {
            products.first { $0.id == id }
        }
    }

    private let database: StoreDatabase
    private let snapshot = Locked(Snapshot())
    private let listeners = Locked<[@Sendable (Snapshot) throws -> Void]>([])
    private let refreshScheduled = Locked(false)

    package init(database: StoreDatabase) {
        self.database = database
    }

    package var current: Snapshot { snapshot.current }

    /// One value of the current snapshot, read under the lock without copying the rest of it.
    package func read<Value>(_ body: (Snapshot) -> Value) -> Value {
        snapshot.withLock { body($0) }
    }

    /// Calls `listener` with every new snapshot before readers see it, and once now with the
    /// current one. A listener that throws keeps the new snapshot from being shown (the refresh
    /// fails, and the next one tries again).
    package func onChange(_ listener: @escaping @Sendable (Snapshot) throws -> Void) throws {
        try listener(current)
        listeners.withLock { $0.append(listener) }
    }

    /// Reads the catalog and replaces the snapshot if anything changed.
    package func refresh() async throws {
        let products = try await database.catalog.products()
        let categories = try await database.catalog.categories()
        let old = snapshot.current
        guard products != old.products || categories != old.categories else { return }
        let fresh = Snapshot(generation: old.generation + 1, products: products, categories: categories)
        for listener in listeners.current { try listener(fresh) }
        snapshot.withLock { $0 = fresh }
    }

    /// Asks for a refresh soon: changes that come close together (a burst of checkouts) are read
    /// once, after `delay`, instead of once each.
    package func refreshSoon(after delay: Duration = .milliseconds(100)) {
        let schedule = refreshScheduled.withLock { scheduled in
            defer { scheduled = true }
            return !scheduled
        }
        guard schedule else { return }
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            // Cleared before reading, so a change made during the read schedules another refresh.
            self?.refreshScheduled.withLock { $0 = false }
            try? await self?.refresh()
        }
    }

    /// Refreshes every `interval` until the task is cancelled; failures are retried next time.
    package func refreshPeriodically(every interval: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                try? await self?.refresh()
            }
        }
    }
}
