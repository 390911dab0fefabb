import Concurrency
import Foundation

/// Bounds how many anonymous shoppers one client address may create: a token bucket per address,
/// holding ``burst`` tokens and refilled at ``perMinute`` a minute. Creating a shopper writes two
/// rows, so a client creating them in a loop would otherwise fill the database.
///
/// Addresses are short (an IP address as text), and buckets that have refilled completely carry no
/// information, so they are dropped when the table grows past 10,000 entries.
package final class NewShopperLimit: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Date
    }

    private let buckets = Locked<[String: Bucket]>([:])
    package let perMinute: Int
    package let burst: Int

    package init(perMinute: Int, burst: Int) {
        self.perMinute = perMinute
        self.burst = burst
    }

    /// Takes a token for `address`, or throws ``SessionError/tooManyNewShoppers(retryAfter:)``.
    /// A request without a known address (not over TCP/IP) is not limited.
    package func take(for address: String?, now: Date) throws(SessionError) {
        guard let address, perMinute > 0 else { return }
        let rate = Double(perMinute) / 60
        let capacity = Double(max(1, burst))
        let wait = buckets.withLock { buckets -> TimeInterval? in
            var bucket = buckets[address] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * rate)
            bucket.updated = now
            defer {
                buckets[address] = bucket
                if buckets.count > 10_000 {
                    buckets = buckets.filter {
                        $0.value.tokens + now.timeIntervalSince($0.value.updated) * rate < capacity
                    }
                }
            }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        if let wait { throw .tooManyNewShoppers(retryAfter: wait) }
    }
}

/// Why a session could not be made.
package enum SessionError: Error, Hashable, Sendable {
    /// Too many new anonymous shoppers from one address: try again after `retryAfter` seconds.
    case tooManyNewShoppers(retryAfter: TimeInterval)
}
