/// What a load balancer or an orchestrator asks (docs/BEHAVIOUR.md §15): no session needed.
public enum OperationsEndpoints {
    /// 200 `{"status": "ok"}` while the process runs; it touches nothing else.
    public static let health = Endpoint<NoBody, HealthBody>(.get, "/healthz")
    /// 200 `{"status": "ready"}` when the database answers within a second, its schema is current
    /// and the server is not draining; otherwise 503 with the `status` saying which
    /// (`draining`, `database_unavailable`, `schema_outdated`).
    public static let ready = Endpoint<NoBody, HealthBody>(.get, "/readyz")
    /// The Prometheus text format, to loopback addresses or with `Authorization: Bearer` of the
    /// store's metrics token; 404 to anyone else.
    public static let metrics = Endpoint<NoBody, RawBytes>(.get, "/metrics")
}

/// The answer of a health or readiness check.
public struct HealthBody: Codable, Hashable, Sendable {
    public var status: String

    public init(status: String) {
        self.status = status
    }
}
