import Foundation

@testable import HTTPServer

extension Parameters {
    /// The parameter `name` converted to `T`, or 400 `invalid_parameter`.
    func require<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws(HTTPError) -> T {
        guard let raw = self[name], let value = T(raw) else {
            throw HTTPError(.badRequest, type: "invalid_parameter", message: "The path parameter '\(name)' is invalid.")
        }
        return value
    }
}

extension Request {
    /// The body as `T`: 400 `malformed_json` when it is not JSON of that shape. The store's own
    /// decoding, with field paths, lives with the store; the server only needs a body to echo.
    func decodeBody<T: Decodable>(_ type: T.Type) throws(HTTPError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch {
            throw HTTPError(.badRequest, type: "malformed_json", message: "The request body is not the expected JSON.")
        }
    }
}

/// The `status type: message` line of the router's default plain-text error answer.
struct PlainError: Equatable {
    var status: Int
    var type: String
    var message: String

    init?(_ response: Response) {
        let text = String(decoding: response.body, as: UTF8.self)
        guard text.hasSuffix("\n"), let space = text.firstIndex(of: " "), let colon = text.range(of: ": ") else {
            return nil
        }
        guard let status = Int(text[..<space]) else { return nil }
        self.status = status
        type = String(text[text.index(after: space)..<colon.lowerBound])
        message = String(text[colon.upperBound...].dropLast())
    }
}
