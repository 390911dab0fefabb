import Concurrency
import Foundation

/// Slows down password guessing: after too many failed logins for one account, or from one client
/// address, within a time window, further attempts are refused (429) until the window moves on.
///
/// Kept in memory: simple, and enough for one server; with several servers each keeps its own
/// count, which still bounds guessing per server.
final class LoginThrottle: Sendable {
    private let failures = Locked<[String: [Date]]>([:])
    private let perAccount: Int
    private let perAddress: Int
    private let window: TimeInterval

    init(perAccount: Int, perAddress: Int, window: TimeInterval) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.window = window
    }

    /// How long until `account` (from `address`) may try again, or `nil` when it may try now.
    func retryAfter(account: String, address: String?, now: Date) -> TimeInterval? {
        failures.withLock { failures in
            var wait: TimeInterval?
            for (key, limit) in keys(account: account, address: address) {
                let recent = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
                failures[key] = recent.isEmpty ? nil : recent
                if recent.count >= limit, let oldest = recent.first {
                    wait = max(wait ?? 0, window - now.timeIntervalSince(oldest))
                }
            }
            return wait
        }
    }

    func recordFailure(account: String, address: String?, now: Date) {
        failures.withLock { failures in
            for (key, _) in keys(account: account, address: address) {
                failures[key, default: []].append(now)
            }
            // Bound memory under a flood of distinct accounts: forget entries whose window passed.
            if failures.count > 10_000 {
                failures = failures.filter { _, dates in dates.contains { now.timeIntervalSince($0) < window } }
            }
        }
    }

    /// A successful login clears the account's failures (not the address's).
    func recordSuccess(account: String) {
        _ = failures.withLock { $0.removeValue(forKey: "account:" + account) }
    }

    private func keys(account: String, address: String?) -> [(String, Int)] {
        var keys = [("account:" + account, perAccount)]
        if let address { keys.append(("address:" + address, perAddress)) }
        return keys
    }
}
