import CMicroHTTPD

/// A response built once and sent many times — a cached document such as a catalog page.
///
/// The server turns it into a libmicrohttpd response (body, header fields, the server's default
/// fields) the first time it is sent and hands that same response to every later connection
/// (libmicrohttpd counts its users), instead of copying the body and adding the fields for every
/// request. Return it from a handler with ``Response/init(prepared:)``; changing that response's
/// status, fields or body makes it an ordinary response again.
public final class PreparedResponse: Sendable {
    /// What is sent.
    public let response: Response

    /// The libmicrohttpd response, built for the first server that sent it; read without a lock
    /// on every request that sends it.
    private let native = PublishedOnce<(server: Int, handle: ConnectionHandle)>()

    public init(_ response: Response) {
        self.response = response
    }

    /// The libmicrohttpd response for `server`, built by `build` on first use; `nil` when it was
    /// built for another server (whose default fields may differ) or cannot be built.
    func native(for server: Int, build: () -> OpaquePointer?) -> OpaquePointer? {
        if let native = native.value { return native.server == server ? native.handle.pointer : nil }
        guard let built = build() else { return nil }
        if native.publish((server, ConnectionHandle(pointer: built))) { return built }
        // Another thread built it at the same time and published first: that one is sent.
        MHD_destroy_response(built)
        return native.value.flatMap { $0.server == server ? $0.handle.pointer : nil }
    }

    deinit {
        if let handle = native.value?.handle { MHD_destroy_response(handle.pointer) }
    }
}
