import CMicroHTTPD
import Concurrency

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

    /// The libmicrohttpd response, built for the first server that sent it.
    private let native = Locked<(server: Int, handle: ConnectionHandle)?>(nil)

    public init(_ response: Response) {
        self.response = response
    }

    /// The libmicrohttpd response for `server`, built by `build` on first use; `nil` when it was
    /// built for another server (whose default fields may differ) or cannot be built.
    func native(for server: Int, build: () -> OpaquePointer?) -> OpaquePointer? {
        native.withLock { native in
            if let native { return native.server == server ? native.handle.pointer : nil }
            guard let built = build() else { return nil }
            native = (server, ConnectionHandle(pointer: built))
            return built
        }
    }

    deinit {
        if let handle = native.withLock({ $0?.handle }) { MHD_destroy_response(handle.pointer) }
    }
}
