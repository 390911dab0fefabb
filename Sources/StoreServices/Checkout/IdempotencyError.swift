/// Why a checkout request's idempotency key cannot be served (docs/BEHAVIOUR.md, "HTTP API").
package enum IdempotencyError: Error, Hashable, Sendable {
    /// The key was used with a different request; `field` names the first field that differs.
    case mismatch(field: String)
    /// The first request with this key is still running.
    case inProgress
}
