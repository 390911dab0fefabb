/// Every API error: `{"error": {"type": "…", "message": "…"}}` (docs/BEHAVIOUR.md §9), with a `reason` for
/// declines and the `field` that differs for `idempotency_mismatch`.
public struct ErrorBody: Codable, Hashable, Sendable, Error {
    public struct Detail: Codable, Hashable, Sendable {
        /// A stable snake_case code such as `price_changed`.
        public var type: String
        /// A sentence for people.
        public var message: String
        /// For `declined`: the provider's reason (`card_declined`, `insufficient_funds`).
        public var reason: String?
        /// For `idempotency_mismatch` and validation errors: the request field concerned.
        public var field: String?

        public init(type: String, message: String, reason: String? = nil, field: String? = nil) {
            self.type = type
            self.message = message
            self.reason = reason
            self.field = field
        }
    }

    public var error: Detail

    public init(type: String, message: String, reason: String? = nil, field: String? = nil) {
        error = Detail(type: type, message: message, reason: reason, field: field)
    }
}
