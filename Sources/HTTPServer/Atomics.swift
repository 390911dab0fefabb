import CMicroHTTPD

/// A 64-bit word read and written atomically: a counter, a connection's phase, a flag (0 or 1)
/// read on every request without a lock, so that reading it writes no memory the network threads
/// share.
final class AtomicWord: @unchecked Sendable {
    // Safety: the value is read and written only through the shim's atomic operations.
    private let value = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)

    init(_ initial: UInt64) {
        value.initialize(to: initial)
    }

    deinit {
        value.deallocate()
    }

    func load() -> UInt64 { cmhd_load_word(value) }

    func store(_ newValue: UInt64) {
        cmhd_store_word(value, newValue)
    }

    /// Stores `desired` if the word holds `expected`; whether it did.
    func replace(_ expected: UInt64, with desired: UInt64) -> Bool {
        cmhd_replace_word(value, expected, desired)
    }

    /// Adds `amount` (wrapping) and answers the sum.
    @discardableResult
    func add(_ amount: UInt64) -> UInt64 { cmhd_add_word(value, amount) }
}

/// A value stored once and then read on every request without a lock (a prepared response's
/// libmicrohttpd handle). The first value published stays; a later one is refused.
final class PublishedOnce<Value: Sendable>: @unchecked Sendable {
    // Safety: the slot holds NULL or a pointer to an initialized, never-changed `Value`, written
    // once by a compare-and-exchange and read with acquiring loads; the `Value` is released only
    // by `deinit`, when no reader is left.
    private let slot = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 1)

    init() {
        slot.initialize(to: nil)
    }

    deinit {
        if let stored = cmhd_load_pointer(slot) {
            let value = stored.assumingMemoryBound(to: Value.self)
            value.deinitialize(count: 1)
            value.deallocate()
        }
        slot.deallocate()
    }

    /// The value published, if any.
    var value: Value? {
        cmhd_load_pointer(slot).map { $0.assumingMemoryBound(to: Value.self).pointee }
    }

    /// Publishes `value` unless one was published first; answers whether it was.
    func publish(_ value: Value) -> Bool {
        let stored = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        stored.initialize(to: value)
        if cmhd_publish_pointer(slot, stored) { return true }
        stored.deinitialize(count: 1)
        stored.deallocate()
        return false
    }
}
