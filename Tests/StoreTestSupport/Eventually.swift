/// Polls `condition` until it holds, for at most `timeout`; returns whether it held.
public func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
