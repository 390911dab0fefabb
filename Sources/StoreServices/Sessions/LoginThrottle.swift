import Concurrency
import Foundation
import StoreCrypto

/// Slows down password guessing without letting a stranger lock a customer out. The policy, and
/// why, is in docs/BEHAVIOUR.md §8 ("Login throttling"); in short, within one window:
///
/// - one account from one address: ``Limits/perAccountAndAddress`` failures, then 429 for that
///   pair — the ordinary "too many wrong passwords";
/// - one address, whatever the accounts: ``Limits/perAddress`` failures (credential stuffing);
/// - one account, whatever the addresses: ``Limits/perAccount`` failures (guessing spread over
///   many addresses) — but an address that logged into the account successfully in the last
///   ``Limits/trustedFor`` keeps its own pair limit only, so an attacker elsewhere cannot lock the
///   owner out of their usual address;
/// - at most ``Limits/inFlightPerAccount`` checks of one account at once.
///
/// An attempt is counted *before* its password is checked (as in flight), so a burst of
/// concurrent guesses cannot all slip under the limit while the first ones are still being hashed.
///
/// Accounts and addresses are kept as 16-byte digests: memory per entry does not grow with what a
/// client sends. Kept in memory: enough for one server; with several servers each keeps its own
/// count, which still bounds guessing per server.
package final class LoginThrottle: Sendable {
    /// The limits, each within ``window``.
    package struct Limits: Sendable {
        package var perAccountAndAddress: Int
        package var perAddress: Int
        package var perAccount: Int
        package var inFlightPerAccount: Int
        package var window: TimeInterval
        package var trustedFor: TimeInterval

        package init(
            perAccountAndAddress: Int, perAddress: Int, perAccount: Int, inFlightPerAccount: Int, window: TimeInterval,
            trustedFor: TimeInterval
        ) {
            self.perAccountAndAddress = perAccountAndAddress
            self.perAddress = perAddress
            self.perAccount = perAccount
            self.inFlightPerAccount = inFlightPerAccount
            self.window = window
            self.trustedFor = trustedFor
        }
    }

    /// A digest standing for an account, an address or a pair of them.
    fileprivate struct Key: Hashable, Sendable {
        let high: UInt64
        let low: UInt64

        init(_ kind: String, _ parts: String...) {
            var bytes = Array(kind.utf8)
            for part in parts {
                bytes.append(0)
                bytes += part.utf8
            }
            let digest = SHA256.digest(bytes)
            high = digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
            low = digest.dropFirst(8).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        }
    }

    private struct State: Sendable {
        /// Times of recent failures, oldest first, per key.
        var failures: [Key: [Date]] = [:]
        /// Checks in progress per account.
        var inFlight: [Key: Int] = [:]
        /// When each (account, address) pair last logged in successfully.
        var trusted: [Key: Date] = [:]
    }

    /// A check let through: hand it back to ``finish(_:succeeded:now:)``.
    package struct Ticket: Sendable {
        fileprivate let account: Key
        fileprivate let address: Key?
        fileprivate let pair: Key?
    }

    private let state = Locked(State())
    package let limits: Limits

    package init(limits: Limits) {
        self.limits = limits
    }

    /// Lets a check of `account` from `address` begin, counting it as in flight.
    ///
    /// - Throws: ``LoginError/throttled(retryAfter:)`` when a limit is reached.
    package func begin(account: String, address: String?, now: Date) throws(LoginError) -> Ticket {
        let ticket = Ticket(
            account: Key("account", account), address: address.map { Key("address", $0) },
            pair: address.map { Key("pair", account, $0) })
        let wait = state.withLock { state -> TimeInterval? in
            let inFlight = state.inFlight[ticket.account, default: 0]
            guard inFlight < limits.inFlightPerAccount else { return 1 }
            var checks: [(Key, Int)] = []
            if let pair = ticket.pair { checks.append((pair, limits.perAccountAndAddress)) }
            if let address = ticket.address { checks.append((address, limits.perAddress)) }
            let isTrusted = ticket.pair.flatMap { state.trusted[$0] }.map {
                now.timeIntervalSince($0) < limits.trustedFor
            }
            if isTrusted != true { checks.append((ticket.account, limits.perAccount)) }
            var wait: TimeInterval?
            for (key, limit) in checks {
                let recent = prune(&state, key, now: now)
                // Checks in flight count as failures until they are known not to be.
                if recent.count + inFlight >= limit {
                    let oldest = recent.first.map { limits.window - now.timeIntervalSince($0) } ?? 1
                    wait = max(wait ?? 0, max(1, oldest))
                }
            }
            if wait == nil { state.inFlight[ticket.account] = inFlight + 1 }
            return wait
        }
        if let wait { throw .throttled(retryAfter: wait) }
        return ticket
    }

    /// Ends a check begun with ``begin(account:address:now:)``. A failure counts against the
    /// account, the address and the pair; a success clears the account's and the pair's failures
    /// and trusts the pair's address for the account.
    package func finish(_ ticket: Ticket, succeeded: Bool, now: Date) {
        state.withLock { state in
            let remaining = state.inFlight[ticket.account, default: 1] - 1
            state.inFlight[ticket.account] = remaining > 0 ? remaining : nil
            if succeeded {
                state.failures[ticket.account] = nil
                if let pair = ticket.pair {
                    state.failures[pair] = nil
                    state.trusted[pair] = now
                }
            } else {
                for key in [ticket.account, ticket.address, ticket.pair].compactMap({ $0 }) {
                    state.failures[key, default: []].append(now)
                }
            }
            forgetOldEntries(&state, now: now)
        }
    }

    /// The number of keys held, for tests of the memory bound.
    package var entryCount: Int {
        state.withLock { $0.failures.count + $0.trusted.count + $0.inFlight.count }
    }

    /// The failures of `key` still inside the window (and drops the older ones).
    private func prune(_ state: inout State, _ key: Key, now: Date) -> [Date] {
        guard let dates = state.failures[key] else { return [] }
        let recent = dates.filter { now.timeIntervalSince($0) < limits.window }
        state.failures[key] = recent.isEmpty ? nil : recent
        return recent
    }

    /// Bounds memory under a flood of distinct accounts: past 10,000 keys, forgets every key whose
    /// failures are all outside the window, and trust older than its time.
    private func forgetOldEntries(_ state: inout State, now: Date) {
        if state.failures.count > 10_000 {
            state.failures = state.failures.filter { _, dates in
                dates.contains { now.timeIntervalSince($0) < limits.window }
            }
        }
        if state.trusted.count > 10_000 {
            state.trusted = state.trusted.filter { now.timeIntervalSince($0.value) < limits.trustedFor }
        }
    }
}
