/// The path parameters a route captured, such as `id` in `/api/products/{id}`; percent-decoded.
public struct Parameters: Sendable, Equatable {
    private var pairs: [(name: String, value: String)]

    /// No parameters.
    public init() {
        pairs = []
    }

    /// Parameters with the given names and values, in order.
    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// The value captured for `name`, or `nil`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The number of parameters.
    public var count: Int { pairs.count }

    /// The values, in the order of the pattern's parameters.
    public var values: [String] { pairs.map(\.value) }

    /// Equal when the same names have the same values in the same order.
    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0 == $1 }
    }
}

/// What the server knows about a request besides the request itself, passed along the middleware
/// chain to the handler.
public struct RequestContext: Sendable {
    /// The path parameters of the matched route.
    public var parameters: Parameters
    /// The pattern of the matched route, such as `/api/products/{id}`; `nil` when none matched.
    /// Safe to log: it holds no value from the request.
    public var route: String?
    /// When the server started reading the request (its headers had arrived).
    public let startTime: ContinuousClock.Instant
    /// The request's number in this process: the same in its access-log line and in any line
    /// logged about it. Safe to log.
    public let requestID: UInt64

    /// A context with no parameters and no route, starting now unless told otherwise.
    public init(
        parameters: Parameters = Parameters(), route: String? = nil, startTime: ContinuousClock.Instant = .now,
        requestID: UInt64 = 0
    ) {
        self.parameters = parameters
        self.route = route
        self.startTime = startTime
        self.requestID = requestID
    }
}
