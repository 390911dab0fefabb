import Foundation

/// A value shared between threads, read and changed only while holding its lock.
///
/// (`Synchronization.Mutex` needs macOS 15; the package also builds for macOS 14.)
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The current value.
    var current: Value { withLock { $0 } }
}
