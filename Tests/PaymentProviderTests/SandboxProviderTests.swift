import CheckoutKit
import Foundation
import PaymentProvider
import StoreDatabase
import StoreTestSupport
import Testing

/// The sandbox provider as the store depends on it (docs/BEHAVIOUR.md §5): each test card does what
/// its name says, a key is charged at most once, a lookup of an unseen key closes it, and its books
/// are its own durable ledger — on a real SQLite file and a real PostgreSQL schema.
@Suite("Sandbox payment provider") struct SandboxProviderTests {
    static let amount = Money(minorUnits: 45_36, currency: .eur)

    /// A sandbox over a fresh ledger on `backend`, closed afterwards.
    static func withSandbox(
        _ backend: Backend, _ body: (SandboxProvider, _ reopen: () async throws -> SandboxProvider) async throws -> Void
    )
        async throws
    {
        func run(_ url: String) async throws {
            let open = {
                try await SandboxProvider.open(
                    ledger: try await StoreDatabase.openUnmigrated(url: url, poolSize: 4).sql)
            }
            let sandbox = try await open()
            do {
                try await body(sandbox, open)
            } catch {
                await sandbox.close()
                throw error
            }
            await sandbox.close()
        }
        switch backend {
        case .sqlite:
            try await withTemporaryDirectory("sandbox") { directory in
                try await run("sqlite:\(directory.appendingPathComponent("ledger.sqlite").path)")
            }
        case .postgres:
            guard let base = TestPostgres.required() else { return }
            try await TestPostgres.withFreshSchema(base, prefix: "sandbox") { url in try await run(url) }
        }
    }

    static func card(_ card: SandboxCard, key: String, amount: Money = amount) -> ChargeRequest {
        ChargeRequest(key: key, amount: amount, method: .card(card.token))
    }

    @Test("each test card does what its name says", arguments: Backend.allCases)
    func testCards(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            guard case .approved(_, let visa) = try await sandbox.charge(Self.card(.visa, key: "k-visa")) else {
                Issue.record("tok_visa was not approved")
                return
            }
            #expect(visa == "visa")
            guard case .approved(_, let mastercard) = try await sandbox.charge(Self.card(.mastercard, key: "k-mc"))
            else {
                Issue.record("tok_mastercard was not approved")
                return
            }
            #expect(mastercard == "mastercard")
            #expect(try await sandbox.charge(Self.card(.chargeDeclined, key: "k-d")) == .declined(.cardDeclined))
            #expect(
                try await sandbox.charge(Self.card(.insufficientFunds, key: "k-f")) == .declined(.insufficientFunds))
            let unknown = ChargeRequest(key: "k-u", amount: Self.amount, method: .card(try CardToken("tok_whatever")))
            #expect(try await sandbox.charge(unknown) == .declined(DeclineReason(rawValue: "invalid_token")))
            for (key, method) in [("k-link", PaymentMethod.paymentLink), ("k-qr", .qrCode)] {
                guard
                    case .approved(_, nil) = try await sandbox.charge(
                        ChargeRequest(key: key, amount: Self.amount, method: method))
                else {
                    Issue.record("\(method) was not approved")
                    return
                }
            }
            // tok_unavailable: down before charging; nothing is on the books.
            await #expect(throws: ProviderError.unavailable) {
                try await sandbox.charge(Self.card(.unavailable, key: "k-down"))
            }
            #expect(try await sandbox.approvedKeys() == ["k-link", "k-mc", "k-qr", "k-visa"])
        }
    }

    @Test("tok_timeout charges, loses the answer, and tells the truth when asked again", arguments: Backend.allCases)
    func lostAnswer(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            await #expect(throws: ProviderError.timedOut) { try await sandbox.charge(Self.card(.timeout, key: "k-t")) }
            #expect(try await sandbox.approvedKeys() == ["k-t"])
            guard case .charged(let chargeID, let amount, _) = try await sandbox.status(ofKey: "k-t") else {
                Issue.record("the lost charge is not on the books")
                return
            }
            #expect(amount == Self.amount)
            // The same key again: the recorded outcome, the same charge, nothing charged twice.
            #expect(
                try await sandbox.charge(Self.card(.timeout, key: "k-t"))
                    == .approved(chargeID: chargeID, cardBrand: "visa"))
            #expect(try await sandbox.approvedKeys() == ["k-t"])
        }
    }

    @Test(
        "a key is charged at most once, however often and however concurrently it is sent", arguments: Backend.allCases)
    func oneChargePerKey(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            let outcomes = try await withThrowingTaskGroup(of: ChargeOutcome.self) { group in
                for index in 0..<32 {
                    // A later call with another amount still gets the first outcome.
                    let amount = Money(minorUnits: 45_36 + Int64(index % 2), currency: .eur)
                    group.addTask { try await sandbox.charge(Self.card(.visa, key: "k-storm", amount: amount)) }
                }
                return try await group.reduce(into: [ChargeOutcome]()) { $0.append($1) }
            }
            #expect(Set(outcomes).count == 1)
            #expect(try await sandbox.approvedKeys() == ["k-storm"])
        }
    }

    @Test("a lookup of an unseen key closes it: a charge arriving later is refused", arguments: Backend.allCases)
    func lookupClosesTheKey(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            #expect(try await sandbox.status(ofKey: "k-late") == .neverSeen)
            #expect(
                try await sandbox.charge(Self.card(.visa, key: "k-late"))
                    == .declined(DeclineReason(rawValue: "key_closed")))
            #expect(try await sandbox.status(ofKey: "k-late") == .neverSeen)
            #expect(try await sandbox.approvedKeys().isEmpty)
            // A declined key answers its decline.
            _ = try await sandbox.charge(Self.card(.chargeDeclined, key: "k-declined"))
            #expect(try await sandbox.status(ofKey: "k-declined") == .declined(.cardDeclined))
        }
    }

    @Test("a lookup racing a charge for one key: one of them wins, whole", arguments: Backend.allCases)
    func lookupRacingACharge(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            for round in 0..<20 {
                let key = "k-race-\(round)"
                async let charged = sandbox.charge(Self.card(.visa, key: key))
                async let looked = sandbox.status(ofKey: key)
                let (outcome, status) = try await (charged, looked)
                switch (outcome, status) {
                case (.approved(let chargeID, _), .charged(let seen, _, _)): #expect(chargeID == seen)
                case (.declined(let reason), .neverSeen): #expect(reason.rawValue == "key_closed")
                default: Issue.record("round \(round): the charge says \(outcome), the books \(status)")
                }
            }
        }
    }

    @Test("the books survive closing and opening the ledger again", arguments: Backend.allCases)
    func durableBooks(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, reopen in
            guard case .approved(let chargeID, _) = try await sandbox.charge(Self.card(.visa, key: "k-kept")) else {
                Issue.record("tok_visa was not approved")
                return
            }
            let again = try await reopen()
            #expect(
                try await again.charge(Self.card(.visa, key: "k-kept"))
                    == .approved(chargeID: chargeID, cardBrand: "visa"))
            #expect(try await again.approvedKeys() == ["k-kept"])
            await again.close()
        }
    }
}
