/// Carries one HTTP exchange to the store and back: what ``LiveStoreClient`` speaks through.
///
/// ``URLSessionTransport`` is the live one; `StoreClientInProcess` answers from the server's router
/// without a socket. A transport knows nothing of the store's API: it sends bytes and returns the
/// status, header fields and bytes it got, or a ``TransportError`` when it got no whole answer.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the answer, whatever its status.
    ///
    /// - Throws: ``TransportError`` when no whole answer arrived (a timeout, no connection, a
    ///   connection closed early, a cancelled task) or what arrived was not HTTP.
    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse
}

/// An ordered list of HTTP header fields; names compare without regard to ASCII case.
public struct HeaderFields: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name, spelled as it was added.
        public var name: String
        /// The field value.
        public var value: String

        /// A field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field]

    /// The given fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// The given fields, in order: `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of `name`; setting replaces every field of that name (`nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { Self.namesEqual($0.name, name) }?.value }
        set {
            fields.removeAll { Self.namesEqual($0.name, name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && lhs.lowercased() == rhs.lowercased()
    }
}

/// A request as a transport sends it: a method, a path (already percent-encoded, from an
/// `Endpoint`), header fields and a body.
public struct TransportRequest: Sendable, Hashable {
    /// `GET`, `POST`, `PUT`, `DELETE`.
    public var method: String
    /// The path on the store, starting with `/`, such as `/api/orders/ord_1`.
    public var path: String
    /// The header fields to send.
    public var headers: HeaderFields
    /// The body; empty for none.
    public var body: [UInt8]

    /// A request.
    public init(method: String, path: String, headers: HeaderFields = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// A whole answer, whatever its status.
public struct TransportResponse: Sendable, Hashable {
    /// The status code, such as 200 or 503.
    public var status: Int
    /// The header fields received.
    public var headers: HeaderFields
    /// The body received; empty for none.
    public var body: [UInt8]

    /// An answer.
    public init(status: Int, headers: HeaderFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a transport has no answer to give.
///
/// ``LiveStoreClient`` turns every case but the last two into ``StoreClientError/unavailable``: the
/// request may or may not have reached the store, so a payment is retried with its key.
public enum TransportError: Error, Sendable, Hashable {
    /// No whole answer before the deadline.
    case timedOut
    /// The store could not be reached: connection refused, host unknown, no network.
    case cannotConnect
    /// The connection closed before a whole answer arrived.
    case connectionLost
    /// The calling task was cancelled before the answer arrived.
    case cancelled
    /// What arrived was not an HTTP answer; `detail` says why (for logs, never personal data).
    case invalidResponse(detail: String)
    /// The request could not be made at all (a path that does not form a URL); nothing was sent.
    case invalidRequest(detail: String)
}
