import Foundation
import HTTPServer
import StoreAPI

extension Request {
    /// Decodes the body as JSON.
    ///
    /// - Throws: ``HTTPServer/HTTPError`` 400 `malformed_json` when the body is not JSON at all, and
    ///   422 `invalid_body` when it is JSON of the wrong shape (a missing field, a wrong type), with
    ///   `field` naming the field's path in the expected type — never a value from the body.
    func decodeJSON<T: Decodable>(
        _ type: T.Type = T.self, using decoder: JSONDecoder = StoreJSON.decoder
    )
        throws(HTTPError) -> T
    {
        guard !body.isEmpty else {
            throw HTTPError(
                .badRequest, type: "malformed_json", message: "The request body is empty; JSON was expected.")
        }
        let data = Data(body)
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            // The decoder reads the whole document before building any value, so a type that
            // accepts every value fails exactly when the body is not JSON.
            if (try? decoder.decode(AnyJSON.self, from: data)) == nil {
                throw HTTPError(.badRequest, type: "malformed_json", message: "The request body is not valid JSON.")
            }
            throw Self.invalidBody(error)
        } catch {
            throw HTTPError(.badRequest, type: "malformed_json", message: "The request body is not valid JSON.")
        }
    }

    /// Decodes from any JSON value without looking at it.
    private struct AnyJSON: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    private static func invalidBody(_ error: DecodingError) -> HTTPError {
        func invalid(_ problem: String, _ path: [any CodingKey]) -> HTTPError {
            let field = fieldPath(path)
            return HTTPError(
                .unprocessableContent, type: "invalid_body",
                message: field.isEmpty ? "The request body \(problem)." : "The request body \(problem) at '\(field)'.",
                field: field.isEmpty ? nil : field)
        }
        switch error {
        case .dataCorrupted(let context):
            return invalid("has an invalid value", context.codingPath)
        case .keyNotFound(let key, let context):
            return invalid("lacks a required field", context.codingPath + [key])
        case .typeMismatch(_, let context):
            return invalid("has a value of the wrong type", context.codingPath)
        case .valueNotFound(_, let context):
            return invalid("lacks a required value", context.codingPath)
        @unknown default:
            return invalid("does not have the expected shape", [])
        }
    }

    /// `items[2].quantity` from a coding path. Dictionary keys come from the body itself, so any
    /// key that is not a plain identifier is shown as `?`.
    private static func fieldPath(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                result += "[\(index)]"
                continue
            }
            let name = key.stringValue
            let isIdentifier =
                !name.isEmpty && name.utf8.count <= 64
                && name.utf8.allSatisfy { byte in
                    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                        || byte == UInt8(ascii: "_")
                }
            result += (result.isEmpty ? "" : ".") + (isIdentifier ? name : "?")
        }
        return result
    }
}
