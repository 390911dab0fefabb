import Foundation
import StoreServices

/// A clock the test moves by hand, for a store started with it.
public final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    public init() {}

    public func advance(by seconds: TimeInterval) {
        lock.lock()
        offset += seconds
        lock.unlock()
    }

    public var clock: StoreClock {
        StoreClock { [self] in
            lock.lock()
            defer { lock.unlock() }
            return Date().addingTimeInterval(offset)
        }
    }
}
