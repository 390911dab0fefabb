import CheckoutKit
import Foundation
import PaymentProvider
import StoreDatabase
import StoreSQL
import StoreTestSupport
import TestWaiting
import Testing

/// The sandbox provider as the store depends on it (docs/BEHAVIOUR.md §5): each test card does what
/// its name says, a key is charged at most once, a lookup of an unseen key closes it, and its books
/// are its own durable ledger — on a real SQLite file and a real PostgreSQL schema.
@Suite("Sandbox payment provider") struct SandboxProviderTests {
    static let amount = Money(minorUnits: 45_36, currency: .eur)

    /// A sandbox over a fresh ledger on `backend`, closed afterwards. `prepare` runs first, on the
    /// ledger's empty database (a ledger left by an earlier version).
    static func withSandbox(
        _ backend: Backend, prepare: (any SQLDatabase) async throws -> Void = { _ in },
        _ body: (SandboxProvider, _ reopen: () async throws -> SandboxProvider) async throws -> Void
    )
        async throws
    {
        func run(_ url: String) async throws {
            let database = try await StoreDatabase.openUnmigrated(url: url, poolSize: 4).sql
            do {
                try await prepare(database)
            } catch {
                await database.close()
                throw error
            }
            await database.close()
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
        "tok_slow charges at once and answers late; the same key asked meanwhile answers at once",
        arguments: Backend.allCases)
    func slowAnswer(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            let slow = Task { try await sandbox.charge(Self.card(.slow, key: "k-slow")) }
            // While the first call waits, the charge is on the books and a repeat gets it.
            let repeated = try #require(
                try await eventuallyValue { () async throws -> ChargeOutcome? in
                    guard try await sandbox.approvedKeys() == ["k-slow"] else { return nil }
                    return try await sandbox.charge(Self.card(.slow, key: "k-slow"))
                })
            let first = try await slow.value
            guard case .approved(let chargeID, "visa") = first else {
                Issue.record("tok_slow was not approved: \(first)")
                return
            }
            #expect(repeated == first)
            #expect(
                try await sandbox.status(ofKey: "k-slow")
                    == .charged(chargeID: chargeID, amount: Self.amount, cardBrand: "visa"))
            #expect(try await sandbox.approvedKeys() == ["k-slow"])
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

    // MARK: - Refunds

    static func eur(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: .eur) }

    /// Charges `amount` to `card` under `key` and returns the charge id; the charge must be approved.
    static func charged(
        _ sandbox: SandboxProvider, _ card: SandboxCard = .visa, key: String, amount: Money = amount
    ) async throws -> String {
        guard case .approved(let chargeID, _) = try await sandbox.charge(Self.card(card, key: key, amount: amount))
        else { throw SandboxTestFailure("\(card.rawValue) was not approved") }
        return chargeID
    }

    @Test("a refund gives back part or all of an approved charge, never more", arguments: Backend.allCases)
    func refundsAnApprovedCharge(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            _ = try await Self.charged(sandbox, key: "k-paid")
            let first = try await sandbox.refund(
                RefundRequest(key: "r-1", chargeKey: "k-paid", amount: Self.eur(10_00)))
            guard case .refunded(let refundID) = first else {
                Issue.record("the refund was refused: \(first)")
                return
            }
            #expect(refundID.hasPrefix("re_"))
            #expect(
                try await sandbox.refundStatus(ofKey: "r-1") == .refunded(refundID: refundID, amount: Self.eur(10_00)))
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-paid") == Self.eur(10_00))
            // The rest, to the cent; then nothing more.
            guard
                case .refunded(let restID) = try await sandbox.refund(
                    RefundRequest(key: "r-2", chargeKey: "k-paid", amount: Self.eur(35_36)))
            else {
                Issue.record("the rest of the charge was not refunded")
                return
            }
            #expect(restID != refundID)
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-3", chargeKey: "k-paid", amount: Self.eur(1)))
                    == .refused(.exceedsCharge))
            #expect(try await sandbox.refundStatus(ofKey: "r-3") == .refused(.exceedsCharge))
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-paid") == Self.amount)
            #expect(
                try await sandbox.refunds() == [
                    SandboxRefund(
                        key: "r-1", chargeKey: "k-paid", outcome: .refunded(refundID: refundID), amount: Self.eur(10_00)
                    ),
                    SandboxRefund(
                        key: "r-2", chargeKey: "k-paid", outcome: .refunded(refundID: restID), amount: Self.eur(35_36)),
                    SandboxRefund(
                        key: "r-3", chargeKey: "k-paid", outcome: .refused(.exceedsCharge), amount: Self.eur(1)),
                ])
            // A payment link's charge is refunded too.
            _ = try await sandbox.charge(ChargeRequest(key: "k-link", amount: Self.amount, method: .paymentLink))
            guard
                case .refunded = try await sandbox.refund(
                    RefundRequest(key: "r-link", chargeKey: "k-link", amount: Self.amount))
            else {
                Issue.record("a payment link's charge was not refunded")
                return
            }
        }
    }

    @Test(
        "a refund key gives back at most once, however often and concurrently it is sent", arguments: Backend.allCases)
    func oneRefundPerKey(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            _ = try await Self.charged(sandbox, key: "k-paid")
            let first = try await sandbox.refund(
                RefundRequest(key: "r-once", chargeKey: "k-paid", amount: Self.eur(5_00)))
            guard case .refunded = first else {
                Issue.record("the refund was refused: \(first)")
                return
            }
            // Again, and with another amount: the first outcome, nothing given back twice.
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-once", chargeKey: "k-paid", amount: Self.eur(5_00)))
                    == first)
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-once", chargeKey: "k-paid", amount: Self.eur(7_00)))
                    == first)
            let storm = try await withThrowingTaskGroup(of: RefundOutcome.self) { group in
                for index in 0..<16 {
                    let amount = Self.eur(3_00 + Int64(index % 2))
                    group.addTask {
                        try await sandbox.refund(RefundRequest(key: "r-storm", chargeKey: "k-paid", amount: amount))
                    }
                }
                return try await group.reduce(into: [RefundOutcome]()) { $0.append($1) }
            }
            #expect(Set(storm).count == 1)
            let made = try await sandbox.refunds().filter { $0.refundID != nil }
            #expect(made.count == 2)
            // The storm's one refund is whichever of its two amounts reached the ledger first.
            let stormAmount = try #require(made.first { $0.key == "r-storm" }?.amount)
            #expect([Self.eur(3_00), Self.eur(3_01)].contains(stormAmount))
            #expect(
                try await sandbox.refundedAmount(ofChargeKey: "k-paid")
                    == Money(minorUnits: 5_00 + stormAmount.minorUnits, currency: .eur))
        }
    }

    @Test(
        "concurrent refunds of one charge under different keys never give back more than was charged",
        arguments: Backend.allCases)
    func concurrentRefundsOfOneCharge(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            _ = try await Self.charged(sandbox, key: "k-100", amount: Self.eur(100_00))
            let outcomes = try await withThrowingTaskGroup(of: RefundOutcome.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await sandbox.refund(
                            RefundRequest(key: "r-\(index)", chargeKey: "k-100", amount: Self.eur(10_00)))
                    }
                }
                return try await group.reduce(into: [RefundOutcome]()) { $0.append($1) }
            }
            let refunded = outcomes.filter { if case .refunded = $0 { true } else { false } }
            #expect(refunded.count == 10)
            #expect(Set(refunded).count == 10)
            #expect(outcomes.filter { $0 == .refused(.exceedsCharge) }.count == 10)
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-100") == Self.eur(100_00))
            let books = try await sandbox.refunds()
            #expect(books.count == 20)
            #expect(books.filter { $0.refundID != nil }.compactMap(\.amount?.minorUnits).reduce(0, +) == 100_00)
        }
    }

    @Test("tok_refundFail: every refund is refused and recorded so", arguments: Backend.allCases)
    func refundFail(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            guard
                case .approved(_, "visa") = try await sandbox.charge(Self.card(.refundFail, key: "k-fail"))
            else {
                Issue.record("tok_refundFail was not approved as a visa")
                return
            }
            let request = RefundRequest(key: "r-fail", chargeKey: "k-fail", amount: Self.eur(1_00))
            #expect(try await sandbox.refund(request) == .refused(.refused))
            #expect(try await sandbox.refund(request) == .refused(.refused))
            #expect(try await sandbox.refundStatus(ofKey: "r-fail") == .refused(.refused))
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-fail") == Self.eur(0))
            #expect(try await sandbox.refunds().map(\.refundID) == [nil])
        }
    }

    @Test(
        "tok_refundTimeout: the refund is made, its answer lost, and the truth told when asked",
        arguments: Backend.allCases)
    func refundTimeout(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            guard
                case .approved(_, "visa") = try await sandbox.charge(Self.card(.refundTimeout, key: "k-lost"))
            else {
                Issue.record("tok_refundTimeout was not approved as a visa")
                return
            }
            let request = RefundRequest(key: "r-lost", chargeKey: "k-lost", amount: Self.eur(20_00))
            await #expect(throws: ProviderError.timedOut) { try await sandbox.refund(request) }
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-lost") == Self.eur(20_00))
            guard case .refunded(let refundID, let amount) = try await sandbox.refundStatus(ofKey: "r-lost") else {
                Issue.record("the lost refund is not on the books")
                return
            }
            #expect(amount == Self.eur(20_00))
            // The same key again: the recorded refund, nothing given back twice.
            #expect(try await sandbox.refund(request) == .refunded(refundID: refundID))
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-lost") == Self.eur(20_00))
            // A refusal is answered: only a refund made loses its answer.
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-too-much", chargeKey: "k-lost", amount: Self.amount))
                    == .refused(.exceedsCharge))
        }
    }

    @Test("a lookup of an unseen refund key closes it: a refund arriving later is refused", arguments: Backend.allCases)
    func refundLookupClosesTheKey(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            _ = try await Self.charged(sandbox, key: "k-paid")
            #expect(try await sandbox.refundStatus(ofKey: "r-late") == .neverSeen)
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-late", chargeKey: "k-paid", amount: Self.eur(1_00)))
                    == .refused(RefundRefusal(rawValue: "key_closed")))
            #expect(try await sandbox.refundStatus(ofKey: "r-late") == .neverSeen)
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-paid") == Self.eur(0))
            #expect(
                try await sandbox.refunds() == [
                    SandboxRefund(
                        key: "r-late", chargeKey: nil, outcome: .refused(RefundRefusal(rawValue: "key_closed")),
                        amount: nil)
                ])
            // A charge key and a refund key live apart: closing one closes nothing of the other.
            #expect(try await sandbox.status(ofKey: "k-paid") != .neverSeen)
        }
    }

    @Test("a refund racing a lookup of its key: one of them wins, whole", arguments: Backend.allCases)
    func refundRacingALookup(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            _ = try await Self.charged(sandbox, key: "k-paid", amount: Self.eur(100_00))
            for round in 0..<20 {
                let key = "r-race-\(round)"
                async let refunded = sandbox.refund(
                    RefundRequest(key: key, chargeKey: "k-paid", amount: Self.eur(1_00)))
                async let looked = sandbox.refundStatus(ofKey: key)
                let (outcome, status) = try await (refunded, looked)
                switch (outcome, status) {
                case (.refunded(let refundID), .refunded(let seen, let amount)):
                    #expect(refundID == seen)
                    #expect(amount == Self.eur(1_00))
                case (.refused(let reason), .neverSeen): #expect(reason.rawValue == "key_closed")
                default: Issue.record("round \(round): the refund says \(outcome), the books \(status)")
                }
            }
            let made = try await sandbox.refunds().filter { $0.refundID != nil }.count
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-paid") == Self.eur(Int64(made) * 1_00))
        }
    }

    @Test(
        "a refund of a charge the sandbox does not hold, or of the wrong amount, is refused",
        arguments: Backend.allCases)
    func refusedRefunds(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, _ in
            _ = try await Self.charged(sandbox, key: "k-paid")
            #expect(try await sandbox.charge(Self.card(.chargeDeclined, key: "k-declined")) == .declined(.cardDeclined))
            #expect(try await sandbox.status(ofKey: "k-closed") == .neverSeen)
            for chargeKey in ["k-unknown", "k-declined", "k-closed"] {
                #expect(
                    try await sandbox.refund(
                        RefundRequest(key: "r-\(chargeKey)", chargeKey: chargeKey, amount: Self.eur(1_00)))
                        == .refused(.noCharge), "\(chargeKey)")
            }
            #expect(
                try await sandbox.refund(
                    RefundRequest(key: "r-usd", chargeKey: "k-paid", amount: Money(minorUnits: 1_00, currency: .usd)))
                    == .refused(RefundRefusal(rawValue: "currency_mismatch")))
            for (key, minorUnits) in [("r-zero", Int64(0)), ("r-negative", -1_00), ("r-min", Int64.min)] {
                #expect(
                    try await sandbox.refund(RefundRequest(key: key, chargeKey: "k-paid", amount: Self.eur(minorUnits)))
                        == .refused(RefundRefusal(rawValue: "invalid_amount")), "\(key)")
            }
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-max", chargeKey: "k-paid", amount: Self.eur(Int64.max)))
                    == .refused(.exceedsCharge))
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-paid") == Self.eur(0))
            #expect(try await sandbox.refundedAmount(ofChargeKey: "k-declined") == nil)
            #expect(try await sandbox.refunds().allSatisfy { $0.refundID == nil })
        }
    }

    @Test(
        "a ledger that fails mid-call: a refund's outcome is unknown, a lookup unavailable", arguments: Backend.allCases
    )
    func refundOnAFailedLedger(backend: Backend) async throws {
        try await Self.withSandbox(backend) { sandbox, reopen in
            _ = try await Self.charged(sandbox, key: "k-paid")
            let closed = try await reopen()
            await closed.close()
            await #expect(throws: ProviderError.timedOut) {
                try await closed.refund(RefundRequest(key: "r-1", chargeKey: "k-paid", amount: Self.eur(1_00)))
            }
            await #expect(throws: ProviderError.unavailable) { try await closed.refundStatus(ofKey: "r-1") }
            #expect(try await sandbox.refunds().isEmpty)
        }
    }

    @Test("a ledger written before refunds opens and refunds its charges", arguments: Backend.allCases)
    func ledgerOfThePreviousVersion(backend: Backend) async throws {
        try await Self.withSandbox(
            backend,
            prepare: { database in
                // The ledger as the version without refunds created it, with one charge on it.
                try await database.write { connection in
                    try connection.executeScript(
                        """
                        CREATE TABLE sandbox_charges (
                            key TEXT PRIMARY KEY,
                            charge_id TEXT NOT NULL UNIQUE,
                            outcome TEXT NOT NULL CHECK (outcome IN ('approved', 'declined')),
                            decline_reason TEXT,
                            card_brand TEXT,
                            method TEXT NOT NULL,
                            amount_minor BIGINT NOT NULL,
                            currency TEXT NOT NULL,
                            created_at BIGINT NOT NULL
                        );
                        INSERT INTO sandbox_charges (key, charge_id, outcome, decline_reason, card_brand, method,
                                                     amount_minor, currency, created_at)
                        VALUES ('k-old', 'ch_old', 'approved', NULL, 'visa', 'card', 4536, 'EUR', 1700000000000)
                        """)
                }
            }
        ) { sandbox, reopen in
            #expect(
                try await sandbox.status(ofKey: "k-old")
                    == .charged(chargeID: "ch_old", amount: Self.amount, cardBrand: "visa"))
            guard
                case .refunded(let refundID) = try await sandbox.refund(
                    RefundRequest(key: "r-old", chargeKey: "k-old", amount: Self.eur(45_00)))
            else {
                Issue.record("the old charge was not refunded")
                return
            }
            #expect(
                try await sandbox.refund(RefundRequest(key: "r-old-2", chargeKey: "k-old", amount: Self.eur(37)))
                    == .refused(.exceedsCharge))
            // New charges record their card; opening the ledger again changes nothing.
            _ = try await Self.charged(sandbox, .refundFail, key: "k-new")
            let again = try await reopen()
            #expect(
                try await again.refund(RefundRequest(key: "r-new", chargeKey: "k-new", amount: Self.eur(1_00)))
                    == .refused(.refused))
            #expect(
                try await again.refundStatus(ofKey: "r-old") == .refunded(refundID: refundID, amount: Self.eur(45_00)))
            #expect(try await again.approvedKeys() == ["k-new", "k-old"])
            await again.close()
        }
    }
}

/// A test's precondition that did not hold.
struct SandboxTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
