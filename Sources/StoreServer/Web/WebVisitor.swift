import Foundation
import HTTPServer
import StoreCrypto
import StoreServices
import StoreViews

/// Who is looking at a page: the shopper behind the session cookie, if there is one.
///
/// The storefront shares `Sessions` with the API: a cookie holds the same kind of token a bearer
/// header does, so a shopper is one shopper whatever the door. A visitor without a cookie has no
/// shopper until their first form: reading pages never writes to the database.
struct WebVisitor: Sendable {
    /// The session cookie's token, when it names a live session.
    let token: SecretToken?
    /// The shopper of that session.
    let shopper: Shopper?

    /// The CSRF token the visitor's forms carry: derived from the session token, so it is bound
    /// to the session and needs no storage; empty without a session (the first form is checked
    /// by its origin instead, see ``WebSessions/requireSameOrigin(_:)``).
    var csrfToken: String {
        token.map { WebSessions.csrfToken(for: $0) } ?? ""
    }
}

/// The storefront's cookies: the session, and the one-shot status of the last action.
enum WebSessions {
    /// The session cookie: the same token as a bearer session, `HttpOnly; SameSite=Lax`.
    static let sessionCookie = "store_session"
    /// The status of the last action, shown once by the page the action redirects to.
    static let statusCookie = "store_status"

    /// The first 16 bytes of `SHA-256("csrf" ‖ 0 ‖ token)`, four bits to a letter from `a` to `p`.
    ///
    /// Letters, not hex: every form carries this token, and about 1 in 1,300 hex tokens holds
    /// digits that pass for a card number (`d400904433402517f5…`), which the store refuses unseen —
    /// every form of that session would have failed.
    ///
    /// `purpose` keeps the tokens of different kinds of session apart (the back office's forms use
    /// their own).
    static func csrfToken(for token: SecretToken, purpose: String = "csrf") -> String {
        let digest = SHA256.digest(Array(purpose.utf8) + [0] + Array(token.text.utf8))
        let hex = Array("abcdefghijklmnop".utf8)
        var text: [UInt8] = []
        for byte in digest.prefix(16) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `sent` equals `expected`, in time independent of where they differ.
    static func constantTimeEqual(_ sent: String, _ expected: String) -> Bool {
        let a = Array(sent.utf8)
        let b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The session cookie for `token`. `Secure` when the request came over TLS (as a proxy in
    /// front says with `X-Forwarded-Proto: https`).
    static func sessionCookie(_ token: SecretToken, for request: Request, lifetime: TimeInterval) -> Cookie {
        Cookie(
            name: sessionCookie, value: token.text, maxAge: Int(lifetime), httpOnly: true,
            secure: isTLS(request), sameSite: .lax)
    }

    /// A cookie that removes the session cookie.
    static func endedSessionCookie(for request: Request) -> Cookie {
        Cookie(name: sessionCookie, value: "", maxAge: 0, httpOnly: true, secure: isTLS(request), sameSite: .lax)
    }

    /// The status cookie carrying `status` to the next page.
    static func statusCookie(_ status: WebStatus, for request: Request) -> Cookie {
        Cookie(
            name: statusCookie, value: status.cookieValue, maxAge: 60, httpOnly: true, secure: isTLS(request),
            sameSite: .lax)
    }

    /// A cookie that removes the status cookie once its page has shown it.
    static func spentStatusCookie(for request: Request) -> Cookie {
        Cookie(name: statusCookie, value: "", maxAge: 0, httpOnly: true, secure: isTLS(request), sameSite: .lax)
    }

    static func isTLS(_ request: Request) -> Bool {
        request.headers["X-Forwarded-Proto"]?.lowercased() == "https"
    }

    /// A form sent by a visitor without a session must come from one of this store's pages: its
    /// `Origin` names the host it was sent to, or the browser says the request is same-origin.
    /// (`SameSite=Lax` keeps the session cookie off cross-site POSTs, so with a session the CSRF
    /// token decides; without one, this keeps another site from making the browser start a
    /// session here.)
    static func isSameOrigin(_ request: Request) -> Bool {
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased() {
            return site == "same-origin"
        }
        guard let origin = request.headers["Origin"], let host = request.headers["Host"] else { return false }
        guard let components = URLComponents(string: origin), let scheme = components.scheme,
            let originHost = components.host
        else { return false }
        // The whole origin: scheme, host and port. A page over https is not this http store.
        guard scheme.lowercased() == (isTLS(request) ? "https" : "http") else { return false }
        let originAuthority = components.port.map { "\(originHost):\($0)" } ?? originHost
        return originAuthority.lowercased() == host.lowercased()
    }
}

extension Sessions {
    /// The visitor behind `request`'s session cookie.
    func visitor(for request: Request) async throws -> WebVisitor {
        guard let text = request.cookie(WebSessions.sessionCookie), let token = SecretToken(text),
            let shopper = try await shopper(for: token)
        else { return WebVisitor(token: nil, shopper: nil) }
        return WebVisitor(token: token, shopper: shopper)
    }
}
