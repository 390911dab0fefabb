/// A cookie to set on the client with a `Set-Cookie` header field.
///
/// The defaults are the safe ones: `Path=/`, `HttpOnly`, `Secure`, `SameSite=Lax`. Characters a
/// cookie name or value may not contain (space, `;`, `,`, `"`, `\`, controls, non-ASCII) are
/// percent-encoded, as is `%`; ``Request/cookies`` decodes them again.
public struct Cookie: Sendable, Equatable {
    /// The `SameSite` attribute.
    public enum SameSite: String, Sendable {
        case strict = "Strict"
        case lax = "Lax"
        /// Sent on cross-site requests too; browsers require ``Cookie/secure`` with it.
        case none = "None"
    }

    /// The cookie's name.
    public var name: String
    /// The cookie's value, as the browser will send it back.
    public var value: String
    /// The `Path` attribute; `nil` leaves it to the browser (the request's directory).
    public var path: String?
    /// The `Domain` attribute; `nil` means the exact host that set it.
    public var domain: String?
    /// Seconds until the cookie expires (`Max-Age`); `nil` for a session cookie, `0` deletes it.
    public var maxAge: Int?
    /// Hides the cookie from scripts.
    public var httpOnly: Bool
    /// Sends the cookie over HTTPS only.
    public var secure: Bool
    /// The `SameSite` attribute; `nil` leaves it out.
    public var sameSite: SameSite?

    /// A cookie with the safe defaults: `Path=/`, `HttpOnly`, `Secure`, `SameSite=Lax`, no expiry.
    public init(
        name: String, value: String, path: String? = "/", domain: String? = nil, maxAge: Int? = nil,
        httpOnly: Bool = true, secure: Bool = true, sameSite: SameSite? = .lax
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.domain = domain
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// A cookie that makes the browser delete the cookie `name` set with the same path and domain.
    public static func expired(name: String, path: String? = "/", domain: String? = nil) -> Cookie {
        Cookie(name: name, value: "", path: path, domain: domain, maxAge: 0)
    }

    /// The `Set-Cookie` field value, for example `sid=abc; Path=/; HttpOnly; Secure; SameSite=Lax`.
    public var headerValue: String {
        var result = Encoding.percentEncoded(name, allowing: Cookie.isTokenByte)
        result += "="
        result += Encoding.percentEncoded(value, allowing: Cookie.isCookieOctet)
        if let path {
            result += "; Path=" + Encoding.percentEncoded(path, allowing: Cookie.isAttributeByte)
        }
        if let domain {
            result += "; Domain=" + Encoding.percentEncoded(domain, allowing: Cookie.isAttributeByte)
        }
        if let maxAge {
            result += "; Max-Age=\(max(0, maxAge))"
        }
        if httpOnly {
            result += "; HttpOnly"
        }
        if secure {
            result += "; Secure"
        }
        if let sameSite {
            result += "; SameSite=" + sameSite.rawValue
        }
        return result
    }

    /// RFC 6265 cookie-octet: visible ASCII except `"`, `,`, `;` and `\`.
    private static func isCookieOctet(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: ",")
            && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "\\")
    }

    /// RFC 7230 token characters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 0x20 && byte < 0x7F else { return false }
        return !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
    }

    /// Attribute values: visible ASCII except `;`.
    private static func isAttributeByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: ";")
    }
}
