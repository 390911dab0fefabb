import CheckoutKit
import Concurrency
import Foundation
import PaymentProvider
import StoreAPI
import StoreClient
import StoreDatabase
import StoreServer
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

/// A real store on a loopback port over a fresh database (an SQLite file by default), as
/// `store serve` runs it, for the client to talk to.
struct LiveStore: Sendable {
    let running: RunningStore

    var server: StoreServer { running.server }
    var database: StoreDatabase { running.database }
    var provider: SandboxProvider { running.provider }
    var base: URL { running.base }

    /// Runs `body` against a fresh store on `backend`, then stops it and removes its data.
    static func with(
        _ backend: Backend = .sqlite, configuration: StoreConfiguration = StoreConfiguration(),
        provider wrap: @escaping @Sendable (SandboxProvider) -> any PaymentProvider = { $0 },
        _ body: (LiveStore) async throws -> Void
    ) async throws {
        try await RunningStore.with(backend, prefix: "client", configuration: configuration, provider: wrap) {
            try await body(LiveStore(running: $0))
        }
    }

    /// A new live client of this store over URLSession, with no session yet.
    func client(timeout: Duration = .seconds(30)) -> LiveStoreClient {
        LiveStoreClient(baseURL: base, timeout: timeout)
    }

    /// The orders in the database, whoever's.
    func orderCount() async throws -> Int {
        try await database.sql.read {
            try $0.queryFirst("SELECT COUNT(*) AS n FROM orders")?.decode("n", as: Int.self) ?? -1
        }
    }

    /// The charges the sandbox provider approved.
    func charges() async throws -> Int {
        try await provider.approvedKeys().count
    }
}

/// Euros from a number of cents.
func eur(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .eur) }

/// An idempotency key with this text.
func makeKey(_ text: String) throws -> IdempotencyKey {
    try #require(IdempotencyKey(rawValue: text))
}

/// The error `call` throws, or `nil` if it succeeded.
func failure<T>(_ call: () async throws(StoreClientError) -> T) async -> StoreClientError? {
    do {
        _ = try await call()
        return nil
    } catch {
        return error
    }
}

/// The demo customers (docs/BEHAVIOUR.md §8.3).
enum Demo {
    static let pro = LoginRequest(email: "pro@onlinestore.test", password: "pro-demo-password")
    static let free = LoginRequest(email: "free@onlinestore.test", password: "free-demo-password")
}

extension CheckoutRequest {
    /// A card payment with a sandbox token, confirming `total`.
    static func card(_ token: String, total: Money) throws -> CheckoutRequest {
        CheckoutRequest(method: .card(try CardToken(token)), expectedTotal: total)
    }
}

extension LiveStoreClient {
    /// The worked-case basket of docs/BEHAVIOUR.md §4: 10.20 + 21.90 + 2 × 8.95 with RUN10, total 45.00.
    @discardableResult
    func fillWorkedCaseBasket() async throws -> BasketBody {
        _ = try await setQuantity(SetQuantityRequest(quantity: 1), productID: 1)
        _ = try await setQuantity(SetQuantityRequest(quantity: 1), productID: 2)
        _ = try await setQuantity(SetQuantityRequest(quantity: 2), productID: 3)
        return try await applyPromotion(ApplyPromotionRequest(code: "RUN10"))
    }
}

/// Holds every provider charge until released, to catch a payment while it is being made.
final class ProviderGate: Sendable {
    private struct State {
        var holding = false
        var held = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// From now on, charges wait.
    func hold() { state.withLock { $0.holding = true } }

    /// Lets every waiting charge go, and the next ones through.
    func release() {
        let resumed = state.withLock { state in
            state.holding = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Returns once a charge is waiting.
    func waitUntilHeld() async throws {
        for _ in 0..<1_000 {
            if state.withLock({ $0.held > 0 }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw GateError.nothingArrived
    }

    fileprivate func pass() async {
        await withCheckedContinuation { continuation in
            let wait = state.withLock { state in
                guard state.holding else { return false }
                state.held += 1
                state.waiting.append(continuation)
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    /// `provider`, its charges passing through this gate.
    func wrap(_ provider: any PaymentProvider) -> any PaymentProvider { GatedProvider(gate: self, provider: provider) }

    enum GateError: Error {
        case nothingArrived
    }
}

private struct GatedProvider: PaymentProvider {
    let gate: ProviderGate
    let provider: any PaymentProvider

    func charge(_ request: ChargeRequest) async throws(ProviderError) -> ChargeOutcome {
        await gate.pass()
        return try await provider.charge(request)
    }

    func status(ofKey key: String) async throws(ProviderError) -> ChargeStatus {
        try await provider.status(ofKey: key)
    }

    func refund(_ request: RefundRequest) async throws(ProviderError) -> RefundOutcome {
        try await provider.refund(request)
    }

    func refundStatus(ofKey key: String) async throws(ProviderError) -> RefundStatus {
        try await provider.refundStatus(ofKey: key)
    }
}
