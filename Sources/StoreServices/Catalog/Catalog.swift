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
    private let pending = Locked(PendingRefresh())
    /// The refresh running or queued last: refreshes run one after another, each from the snapshot
    /// the one before left, so an older read never replaces a newer one.
    private let lastRefresh = Locked<Task<Void, Never>?>(nil)

    /// What a refresh asked for with ``refreshSoon(after:)`` or ``stockChanged(_:after:)`` is to read.
    private struct PendingRefresh {
        var scheduled = false
        var everything = false
        var stock: Set<ProductID> = []
    }

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
        try await oneAtATime { [self] in
            let products = try await database.catalog.products()
            let categories = try await database.catalog.categories()
            let old = snapshot.current
            guard products != old.products || categories != old.categories else { return }
            try publish(Snapshot(generation: old.generation + 1, products: products, categories: categories))
        }
    }

    /// Reads the stock of `products` alone and puts it into the snapshot: what a sale changes,
    /// without reading the whole catalog again. Other changes wait for ``refresh()``.
    package func refreshStock(of products: Set<ProductID>) async throws {
        guard !products.isEmpty else { return }
        try await oneAtATime { [self] in
            let stock = try await database.catalog.stock(of: products)
            let old = snapshot.current
            var fresh = old
            var changed = false
            for index in fresh.products.indices {
                if let units = stock[fresh.products[index].id], units != fresh.products[index].stock {
                    fresh.products[index].stock = units
                    changed = true
                }
            }
            guard changed else { return }
            fresh.generation = old.generation + 1
            try publish(fresh)
        }
    }

    /// Asks for a refresh soon: changes that come close together are read once, after `delay`,
    /// instead of once each.
    package func refreshSoon(after delay: Duration = .milliseconds(100)) {
        schedule(after: delay) { $0.everything = true }
    }

    /// Asks for the stock of `products` to be read soon (a sale changed it; a refund asks for a
    /// whole ``refreshSoon(after:)``, as the back office's changes do): the stock
    /// changed by a burst of checkouts is read once, after `delay`, and only for what they sold.
    package func stockChanged(_ products: some Sequence<ProductID>, after delay: Duration = .milliseconds(100)) {
        schedule(after: delay) { $0.stock.formUnion(products) }
    }

    private func schedule(after delay: Duration, _ ask: (inout PendingRefresh) -> Void) {
        let start = pending.withLock { pending in
            ask(&pending)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        guard start else { return }
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            // Taken before reading, so a change made during the read schedules another refresh.
            guard
                let work = self?.pending.withLock({ pending in
                    defer { pending = PendingRefresh() }
                    return pending
                })
            else { return }
            if work.everything {
                try? await self?.refresh()
            } else {
                try? await self?.refreshStock(of: work.stock)
            }
        }
    }

    /// Shows `fresh` once every listener has taken it.
    private func publish(_ fresh: Snapshot) throws {
        for listener in listeners.current { try listener(fresh) }
        snapshot.withLock { $0 = fresh }
    }

    /// Runs `work` after every refresh asked for before it has finished.
    private func oneAtATime(_ work: @escaping @Sendable () async throws -> Void) async throws {
        let (task, result) = lastRefresh.withLock { last -> (Task<Void, Never>, Locked<Result<Void, any Error>>) in
            let previous = last
            let result = Locked<Result<Void, any Error>>(.success(()))
            let next = Task {
                await previous?.value
                do { try await work() } catch { result.withLock { $0 = .failure(error) } }
            }
            last = next
            return (next, result)
        }
        await task.value
        try result.current.get()
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
