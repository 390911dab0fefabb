/// Waits for a condition instead of sleeping a fixed time: checks `condition` every `interval`
/// until it holds, for at most `timeout`, and returns whether it held. What every suite waits with;
/// it pulls in nothing, so the lowest targets' tests use it too.
public func eventually(
    timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(1),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return try await condition()
}

/// The first value `produce` gives that is not `nil`, checking every `interval` for at most
/// `timeout`; `nil` when none came.
public func eventuallyValue<Value>(
    timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(1),
    _ produce: () async throws -> Value?
) async throws -> Value? {
    var value: Value?
    _ = try await eventually(timeout: timeout, every: interval) {
        value = try await produce()
        return value != nil
    }
    return value
}
