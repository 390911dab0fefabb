import Foundation
import StoreAPI
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

@testable import StoreServer

/// The login throttle's policy (docs/BEHAVIOUR.md §8), with a hand-moved clock, and its edges
/// through a real server.
@Suite("Login throttle") struct LoginThrottleTests {
    static let limits = LoginThrottle.Limits(
        perAccountAndAddress: 5, perAddress: 20, perAccount: 20, inFlightPerAccount: 2, window: 900,
        trustedFor: 30 * 86_400)
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Fails `count` checks of `account` from `address` at `now`; returns how many were let through.
    @discardableResult
    func fail(_ throttle: LoginThrottle, _ account: String, from address: String, times count: Int, at now: Date) -> Int
    {
        var admitted = 0
        for _ in 0..<count {
            guard let ticket = try? throttle.begin(account: account, address: address, now: now) else { continue }
            admitted += 1
            throttle.finish(ticket, succeeded: false, now: now)
        }
        return admitted
    }

    func admits(_ throttle: LoginThrottle, _ account: String, from address: String, at now: Date) -> Bool {
        guard let ticket = try? throttle.begin(account: account, address: address, now: now) else { return false }
        throttle.finish(ticket, succeeded: true, now: now)
        return true
    }

    @Test func fiveWrongPasswordsFromOneAddressStopThatPairForTheWindow() throws {
        let throttle = LoginThrottle(limits: Self.limits)
        #expect(fail(throttle, "ada@example.test", from: "198.51.100.7", times: 8, at: Self.start) == 5)
        let error = #expect(throws: LoginError.self) {
            try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start + 60)
        }
        guard case .throttled(let wait) = error else {
            Issue.record("not throttled: \(String(describing: error))"); return
        }
        #expect(wait > 800 && wait <= 900)
        // Another account from the same address, and the same account from elsewhere, go on.
        #expect(admits(throttle, "bob@example.test", from: "198.51.100.7", at: Self.start + 60))
        #expect(admits(throttle, "ada@example.test", from: "203.0.113.9", at: Self.start + 60))
        // Once the window has moved on, the pair may try again.
        #expect(admits(throttle, "ada@example.test", from: "198.51.100.7", at: Self.start + 901))
    }

    @Test func oneAddressGuessingManyAccountsIsStopped() {
        let throttle = LoginThrottle(limits: Self.limits)
        var admitted = 0
        for index in 0..<40 {
            admitted += fail(throttle, "user\(index)@example.test", from: "198.51.100.7", times: 1, at: Self.start)
        }
        #expect(admitted == 20)
        #expect(!admits(throttle, "new@example.test", from: "198.51.100.7", at: Self.start))
        #expect(admits(throttle, "new@example.test", from: "203.0.113.9", at: Self.start))
    }

    @Test func guessingFromManyAddressesLocksOutStrangersButNotTheOwnersAddress() {
        let throttle = LoginThrottle(limits: Self.limits)
        // The owner logged in from home last week.
        #expect(admits(throttle, "ada@example.test", from: "192.0.2.10", at: Self.start - 7 * 86_400))
        var admitted = 0
        for index in 0..<30 {
            admitted += fail(throttle, "ada@example.test", from: "198.51.100.\(index)", times: 1, at: Self.start)
        }
        #expect(admitted == 20, "the account-wide limit bounds guesses spread over addresses")
        #expect(!admits(throttle, "ada@example.test", from: "203.0.113.1", at: Self.start + 1))
        #expect(admits(throttle, "ada@example.test", from: "192.0.2.10", at: Self.start + 1), "home still works")
        #expect(admits(throttle, "ada@example.test", from: "203.0.113.1", at: Self.start + 901))
    }

    @Test func checksInFlightCountBeforeTheyFail() throws {
        let throttle = LoginThrottle(limits: Self.limits)
        let first = try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start)
        let second = try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start)
        #expect(throws: LoginError.self) {
            try throttle.begin(account: "ada@example.test", address: "203.0.113.9", now: Self.start)
        }
        throttle.finish(first, succeeded: false, now: Self.start)
        throttle.finish(second, succeeded: false, now: Self.start)
        // 2 failures + up to 2 in flight: the 6th check of the pair cannot begin while 2 run.
        let third = try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start)
        let fourth = try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start)
        throttle.finish(third, succeeded: false, now: Self.start)
        throttle.finish(fourth, succeeded: false, now: Self.start)
        let fifth = try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start)
        #expect(throws: LoginError.self) {
            try throttle.begin(account: "ada@example.test", address: "198.51.100.7", now: Self.start)
        }
        throttle.finish(fifth, succeeded: false, now: Self.start)
    }

    @Test func memoryDoesNotGrowWithWhatClientsSend() {
        let throttle = LoginThrottle(limits: Self.limits)
        let long = String(repeating: "a", count: 100_000)
        for index in 0..<50 {
            fail(throttle, long + "\(index)@example.test", from: "198.51.100.\(index)", times: 1, at: Self.start)
        }
        // Three 16-byte keys per failure, whatever the length of the email.
        #expect(throttle.entryCount <= 150)
    }

    // MARK: Through a real server

    @Test("30 concurrent wrong passwords for one account: at most 5 are checked", arguments: Backend.allCases)
    func concurrentGuessesAreCountedBeforeTheyAreChecked(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<30 {
                    group.addTask { try await store.login("free@onlinestore.test", "wrong").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 == 401 }.count
            #expect(checked >= 1 && checked <= 5, "\(checked) wrong passwords were checked")
            #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 })
            // One after another, the rest of the five; then the pair is stopped, right password or not.
            for _ in checked..<5 {
                #expect(try await store.login("free@onlinestore.test", "wrong").status == 401)
            }
            let stopped = try await store.login("free@onlinestore.test", "free-demo-password")
            #expect(stopped.status == 429)
            #expect(stopped.errorType == "too_many_attempts")
        }
    }

    @Test("an email that cannot be one is refused before anything is done with it", arguments: Backend.allCases)
    func impossibleEmailsAreRefused(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let huge = String(repeating: "a", count: 1 << 19) + "@onlinestore.test"
            for email in [huge, "free\u{0}@onlinestore.test", "pro@onlinestore.test\u{0}", "a\u{7}b@example.test"] {
                let reply = try await store.login(email, "whatever")
                #expect(reply.status == 422, "\(reply.status) \(reply.text.prefix(200))")
                #expect(reply.errorType == "invalid_body")
                let fake = try await store.send(
                    FakeStoreEndpoints.login, body: FakeStoreLoginRequest(username: email, password: "whatever"))
                #expect(fake.status == 422)
            }
            // 254 characters is still an email (unknown here), and the throttle was not touched above.
            let domain = "@onlinestore.test"
            let longest = String(repeating: "é", count: 254 - domain.count) + domain
            #expect(try await store.login(longest, "whatever").status == 401)
            #expect(try await store.login("é" + longest, "whatever").status == 422)
            #expect(try await store.login("free@onlinestore.test", "free-demo-password").status == 200)
        }
    }

    @Test("new anonymous shoppers are limited per address; existing sessions are not", arguments: Backend.allCases)
    func newShoppersAreLimitedPerAddress(backend: Backend) async throws {
        var configuration = StoreConfiguration()
        configuration.newShoppersPerAddressBurst = 3
        configuration.newShoppersPerAddressPerMinute = 6
        try await TestStore.with(backend, configuration: configuration) { store in
            var tokens: [String] = []
            for _ in 0..<2 { tokens.append(try await store.newSession()) }
            let cart = FakeStoreCartRequest(
                userId: nil, date: nil, products: [FakeStoreCartLine(productId: 1, quantity: 1)])
            let created = try await store.send(FakeStoreEndpoints.carts, body: cart)
            #expect(created.status == 200 || created.status == 201)
            for refused in [
                try await store.send(Endpoints.createSession),
                try await store.send(FakeStoreEndpoints.carts, body: cart),
            ] {
                #expect(refused.status == 429)
                #expect(refused.errorType == "too_many_requests")
                #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
            }
            // Shoppers who have a session carry on, the Fake-Store cart with a token included.
            #expect(try await store.setQuantity(1, of: 1, token: tokens[0]).status == 200)
            let own = try await store.send(FakeStoreEndpoints.carts, body: cart, token: tokens[1])
            #expect(own.status == 200 || own.status == 201)
        }
    }

    @Test(
        "a storefront form over the new-visitor limit says to wait, not that the form expired",
        arguments: [Backend.sqlite])
    func tooManyNewVisitorsOnAForm(backend: Backend) async throws {
        var configuration = StoreConfiguration()
        configuration.newShoppersPerAddressBurst = 1
        configuration.newShoppersPerAddressPerMinute = 1
        try await TestStore.with(backend, configuration: configuration) { store in
            #expect(try await TestBrowser(base: store.base).post("/basket/items", [("product_id", "2")]).status == 303)
            let refused = try await TestBrowser(base: store.base).post("/basket/items", [("product_id", "2")])
            #expect(refused.status == 429)
            #expect(refused.text.hasPrefix("<!doctype html>"))
            #expect(refused.text.contains("Please wait a moment"))
            #expect(!refused.text.contains("expired"))
            #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
        }
    }
}
