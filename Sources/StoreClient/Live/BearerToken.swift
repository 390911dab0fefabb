/// The bearer token the live client speaks with, and the one anonymous session it may be starting.
///
/// Requests that need a session and find none share one `POST /api/sessions`, so a burst of
/// first requests makes one shopper, not several. Every change of the token (a new session, a
/// login, a logout, an expired session forgotten) bumps a generation, so a session created
/// meanwhile never overwrites a token set later.
actor BearerToken {
    private var token: String?
    private var generation = 0
    private var pending: Task<Result<String, StoreClientError>, Never>?

    init(_ token: String?) {
        self.token = token
    }

    /// The token, if any.
    var current: String? { token }

    /// Replaces the token (`nil` forgets it).
    func set(_ newToken: String?) {
        token = newToken
        generation += 1
        pending = nil
    }

    /// Forgets `expired` if it is still the token in use.
    func forget(_ expired: String) {
        guard token == expired else { return }
        set(nil)
    }

    /// The token, starting a session with `create` first when there is none (or joining the one
    /// being started).
    func ensure(
        _ create: @escaping @Sendable () async -> Result<String, StoreClientError>
    ) async throws(StoreClientError) -> String {
        if let token { return token }
        let task: Task<Result<String, StoreClientError>, Never>
        if let pending {
            task = pending
        } else {
            task = Task { await create() }
            pending = task
        }
        let started = generation
        let result = await task.value
        if generation == started {
            pending = nil
            if case .success(let created) = result { set(created) }
        }
        if let token { return token }
        return try result.get()
    }
}
