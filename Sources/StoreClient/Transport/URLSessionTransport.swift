import Concurrency
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport: HTTP to the store at ``baseURL`` over the process's one long-lived
/// `URLSession` (``sharedSession``), which every transport shares and nobody tears down.
///
/// Every call has a deadline of its own (``timeout``), kept with structured concurrency: the
/// request and a timer race in a task group, and the loser is cancelled — which cancels the
/// `URLSessionDataTask`, so no request outlives its call. (URLSession's own timeout counts whole
/// seconds on Linux and measures inactivity, not the whole exchange; each request's is set well
/// beyond the deadline, only as a backstop, so that the deadline always decides.)
///
/// One session for the process, not one per transport: a session torn down (`invalidateAndCancel`)
/// while its delegate queue still drains crashed the test process now and then inside libdispatch
/// (`_dispatch_event_loop_drain`), once a test had made and dropped hundreds of clients.
public final class URLSessionTransport: HTTPTransport {
    /// The store's address, such as `http://127.0.0.1:8080`; request paths are added to it.
    public let baseURL: URL
    /// How long one exchange may take, from sending to the last byte of the answer.
    public let timeout: Duration
    private let base: String
    /// How much later than the deadline URLSession's own timeouts are set, in seconds.
    static let backstopMargin: TimeInterval = 30

    /// The session every transport of the process sends through: ephemeral (no cookies, no cache,
    /// no credentials kept on disk), and never invalidated.
    static let sharedSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// The session this transport sends through: ``sharedSession``.
    var session: URLSession { Self.sharedSession }

    /// A transport to the store at `baseURL`; `timeout` is the deadline of each exchange.
    public init(baseURL: URL, timeout: Duration = .seconds(30)) {
        self.baseURL = baseURL
        self.timeout = timeout
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
    }

    /// Sends `request` to ``baseURL`` and returns the answer, or throws once ``timeout`` has passed.
    public func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        guard request.path.hasPrefix("/"), let url = URL(string: base + request.path) else {
            throw .invalidRequest(detail: "the path does not form a URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.timeoutInterval = TimeInterval(timeout.components.seconds) + Self.backstopMargin
        urlRequest.httpMethod = request.method
        for field in request.headers.fields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let prepared = urlRequest
        let session = self.session
        let timeout = self.timeout
        do {
            return try await withThrowingTaskGroup(of: TransportResponse.self) { group in
                group.addTask { try await Self.exchange(prepared, on: session) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    throw TransportError.timedOut
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw TransportError.cancelled }
                return first
            }
        } catch let error as TransportError {
            throw error
        } catch {
            // Only the timer throws anything else: a CancellationError, when the caller was cancelled.
            throw .cancelled
        }
    }

    /// How one exchange ended.
    typealias Outcome = Result<TransportResponse, TransportError>

    /// One data task, cancelled when the calling task is.
    private static func exchange(
        _ request: URLRequest, on session: URLSession
    ) async throws(TransportError) -> TransportResponse {
        let state = Locked<DataTaskState>(.notStarted)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let task = session.dataTask(with: request) { data, response, error in
                    continuation.resume(returning: Self.result(data: data, response: response, error: error))
                }
                let cancelled = state.withLock { state -> Bool in
                    if case .cancelled = state { return true }
                    state = .running(DataTaskBox(task: task))
                    return false
                }
                task.resume()
                if cancelled { task.cancel() }
            }
        } onCancel: {
            let running = state.withLock { state -> DataTaskBox? in
                defer { state = .cancelled }
                if case .running(let box) = state { return box }
                return nil
            }
            running?.task.cancel()
        }
        return try result.get()
    }

    /// What a finished data task amounts to.
    static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Outcome {
        if let error { return .failure(transportError(error)) }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.invalidResponse(detail: "the answer is not HTTP"))
        }
        var headers = HeaderFields()
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers.append(name: name, value: value) }
        }
        return .success(TransportResponse(status: http.statusCode, headers: headers, body: data.map(Array.init) ?? []))
    }

    /// A URL loading error as one of the transport's.
    static func transportError(_ error: any Error) -> TransportError {
        guard let urlError = error as? URLError else { return .connectionLost }
        switch urlError.code {
        case .timedOut:
            return .timedOut
        case .cancelled:
            return .cancelled
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
            .secureConnectionFailed, .internationalRoamingOff, .dataNotAllowed, .callIsActive:
            return .cannotConnect
        case .networkConnectionLost, .badServerResponse:
            // Foundation on Linux reports a connection closed before any answer ("empty reply")
            // as a bad server response.
            return .connectionLost
        case .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData, .httpTooManyRedirects,
            .redirectToNonExistentLocation, .badURL, .unsupportedURL:
            return .invalidResponse(detail: "URL loading error \(urlError.code.rawValue)")
        default:
            return .connectionLost
        }
    }
}

/// Where one data task is, so that a cancellation arriving before it started still stops it.
private enum DataTaskState: Sendable {
    case notStarted
    case running(DataTaskBox)
    case cancelled
}

/// A data task handed between the thread that starts it and the one that cancels it.
/// `URLSessionTask` is thread-safe (its `cancel()` may be called from any thread).
private struct DataTaskBox: @unchecked Sendable {
    let task: URLSessionDataTask
}
