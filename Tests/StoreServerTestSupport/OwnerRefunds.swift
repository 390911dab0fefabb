import Foundation
import StoreAPI
import StoreTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The demo owner refunding through the back office's JSON API (docs/BEHAVIOUR.md §14), against any
/// running store — one in this process or a `store serve` — so the shopper's side can be checked
/// after a real refund.
public struct OwnerRefunds: Sendable {
    public let base: URL

    public init(base: URL) {
        self.base = base
    }

    /// Refunds `body` of order `id` as the demo owner under a fresh idempotency key; the refund.
    public func refund(_ id: String, _ body: RefundRequestBody) async throws -> RefundBody {
        let token = try await signIn()
        let (status, data) = try await send(
            AdminEndpoints.refundOrder.method.rawValue, AdminEndpoints.refundOrder.path([id]), body: body,
            headers: ["Authorization": "Bearer \(token)", Endpoints.idempotencyKeyHeader: UUID().uuidString])
        guard status == 201 else {
            throw TestError("refunding \(id) answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return try StoreJSON.makeDecoder().decode(RefundBody.self, from: data)
    }

    private func signIn() async throws -> String {
        let (status, data) = try await send(
            AdminEndpoints.createSession.method.rawValue, AdminEndpoints.createSession.path([]),
            body: StaffSignInRequest(email: "owner@onlinestore.test", password: "owner-demo-password"), headers: [:])
        guard status == 201 else { throw TestError("the owner's sign-in answered \(status)") }
        return try StoreJSON.makeDecoder().decode(StaffSessionResponse.self, from: data).token
    }

    private func send(
        _ method: String, _ path: String, body: some Encodable, headers: [String: String]
    ) async throws -> (Int, Data) {
        guard let url = URL(string: path, relativeTo: base) else { throw TestError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = try StoreJSON.makeEncoder().encode(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await TestStore.session.uncancelledData(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestError("not an HTTP response") }
        return (http.statusCode, data)
    }
}
