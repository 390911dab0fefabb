import AdminViews
import CheckoutKit
import Foundation
import StoreAPI
import StoreCrypto
import StoreServerTestSupport
import StoreTestSupport
import Testing

@testable import StoreServer

extension TestStore {
    /// Signs a member of staff in through the API; the session's token.
    func staffToken(_ email: String, _ password: String) async throws -> String {
        let reply = try await send(
            AdminEndpoints.createSession, body: StaffSignInRequest(email: email, password: password))
        guard reply.status == 201 else { throw TestError("staff sign-in answered \(reply.status): \(reply.text)") }
        return try reply.decode(StaffSessionResponse.self).token
    }

    /// The demo owner's token.
    func ownerToken() async throws -> String {
        try await staffToken("owner@onlinestore.test", "owner-demo-password")
    }

    /// Adds a member of staff with `role` as the demo owner; their email (the password is
    /// "a long password").
    func addStaff(role: StaffRole) async throws -> String {
        let email = "\(role.rawValue)-\(UUID().uuidString.prefix(8).lowercased())@shop.test"
        let added = try await send(
            AdminEndpoints.addStaff,
            body: NewStaffRequest(email: email, role: role.rawValue, password: "a long password"),
            token: try await ownerToken())
        guard added.status == 201 else { throw TestError("adding staff answered \(added.status): \(added.text)") }
        return email
    }
}

/// Who may use the back office's API (docs/BEHAVIOUR.md §13): staff sessions apart from customers',
/// each route open to the roles it names — walked from the route table, so a new route cannot be
/// forgotten.
@Suite("Back office: access") struct AdminAccessTests {
    @Test(
        "the demo owner signs in; a wrong password and an unknown email get the same 401, both audited",
        arguments: Backend.allCases)
    func signIn(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let signedIn = try await store.send(
                AdminEndpoints.createSession,
                body: StaffSignInRequest(email: "owner@onlinestore.test", password: "owner-demo-password"))
            #expect(signedIn.status == 201)
            #expect(
                try signedIn.decode(StaffSessionResponse.self).staff
                    == StaffBody(email: "owner@onlinestore.test", role: "owner"))
            #expect(signedIn.header("Cache-Control") == "no-store")
            let wrong = try await store.send(
                AdminEndpoints.createSession,
                body: StaffSignInRequest(email: "owner@onlinestore.test", password: "nope"))
            let unknown = try await store.send(
                AdminEndpoints.createSession,
                body: StaffSignInRequest(email: "nobody@onlinestore.test", password: "nope"))
            for reply in [wrong, unknown] {
                #expect(reply.status == 401)
                #expect(reply.errorType == "invalid_credentials")
            }
            #expect(wrong.text == unknown.text)
            // A customer's credentials are not a member of staff's.
            let customer = try await store.send(
                AdminEndpoints.createSession,
                body: StaffSignInRequest(email: "pro@onlinestore.test", password: "pro-demo-password"))
            #expect(customer.status == 401)
            let log = try await store.database.audit.entries()
            #expect(
                log.prefix(4).map(\.action) == [
                    "staff.sign_in_failed", "staff.sign_in_failed", "staff.sign_in_failed", "staff.signed_in",
                ])
            #expect(
                log.prefix(4).map(\.actor) == [
                    "unknown account", "unknown account", "owner@onlinestore.test", "owner@onlinestore.test",
                ])
            #expect(!log.contains { $0.actor.contains("nobody") || $0.subject.contains("nobody") })
        }
    }

    @Test(
        "every staff route refuses who it should: none, a customer, and the roles without its permission",
        arguments: [Backend.sqlite])
    func everyRouteByEveryRole(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let customer = try await store.login("pro@onlinestore.test", "pro-demo-password").decode(LoginResponse.self)
                .token
            var emails: [StaffRole: String] = [.owner: "owner@onlinestore.test"]
            for role in [StaffRole.catalog, .orders] { emails[role] = try await store.addStaff(role: role) }
            // A fresh session for each call: the walk also signs out.
            func token(_ role: StaffRole) async throws -> String {
                role == .owner
                    ? try await store.ownerToken() : try await store.staffToken(emails[role] ?? "", "a long password")
            }
            let staffRoutes = store.server.routes.compactMap { route -> (RouteEntry, Permission?)? in
                guard case .staff(let permission) = route.access else { return nil }
                return (route, permission)
            }
            #expect(!staffRoutes.isEmpty)
            #expect(staffRoutes.contains { $0.0.face == .backOffice })
            for (route, permission) in staffRoutes {
                let path = route.pattern.replacingOccurrences(
                    of: #"\{[a-z_]+\}"#, with: "1", options: .regularExpression)
                if route.face == .backOffice {
                    // A page or form: the staff cookie, not a bearer token; a form with its CSRF token.
                    func open(staff: String?, shopper: String?) async throws -> TestStore.Reply {
                        let browser = TestBrowser(base: store.base)
                        if let staff { browser.setCookie(BackOfficeCookies.session, staff) }
                        if let shopper { browser.setCookie("store_session", shopper) }
                        if route.method == .get { return try await browser.get(path) }
                        let csrf = staff.flatMap(SecretToken.init).map(BackOfficeCookies.csrfToken(for:)) ?? ""
                        return try await browser.post(path, [], csrf: csrf)
                    }
                    func isSignIn(_ reply: TestStore.Reply) -> Bool {
                        reply.status == 303 && reply.header("Location")?.hasPrefix(AdminPaths.login) == true
                    }
                    for shopper in [nil, customer] {
                        let refused = try await open(staff: nil, shopper: shopper)
                        #expect(isSignIn(refused), "\(route) with \(shopper == nil ? "no cookie" : "a customer's")")
                    }
                    for role in StaffRole.allCases {
                        let reply = try await open(staff: try await token(role), shopper: nil)
                        if let permission, !role.may(permission) {
                            #expect(reply.status == 403, "\(route) as \(role)")
                            #expect(reply.text.contains("Not allowed") || reply.text.contains("not allowed"))
                        } else {
                            #expect(reply.status != 403, "\(route) as \(role): \(reply.status)")
                            #expect(!isSignIn(reply) || route.pattern == AdminPaths.logout, "\(route) as \(role)")
                        }
                    }
                    continue
                }
                let body = route.method == .get || route.method == .delete ? nil : "{}"
                for token in [nil, customer] {
                    let refused = try await store.send(route.method.rawValue, path, token: token, json: body)
                    #expect(refused.status == 401, "\(route) with \(token == nil ? "no token" : "a customer's token")")
                }
                for role in StaffRole.allCases {
                    let reply = try await store.send(
                        route.method.rawValue, path, token: try await token(role), json: body)
                    if let permission, !role.may(permission) {
                        #expect(reply.status == 403, "\(route) as \(role)")
                        #expect(reply.errorType == "forbidden")
                    } else {
                        #expect(reply.status != 401 && reply.status != 403, "\(route) as \(role): \(reply.status)")
                    }
                }
            }
        }
    }

    @Test(
        "the owner adds staff; bad input is refused with the field; the new member signs in",
        arguments: Backend.allCases)
    func addingStaff(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let owner = try await store.ownerToken()
            func add(_ email: String, _ role: String, _ password: String) async throws -> TestStore.Reply {
                try await store.send(
                    AdminEndpoints.addStaff, body: NewStaffRequest(email: email, role: role, password: password),
                    token: owner)
            }
            #expect(try await add("packer@shop.test", "orders", "short").errorType == "password_too_short")
            #expect(try await add("not an email", "orders", "a long password").errorType == "invalid_email")
            #expect(try await add("packer@shop.test", "cashier", "a long password").errorType == "invalid_role")
            #expect(try await add("4242 4242 4242 4242@shop.test", "orders", "a long password").status == 422)
            #expect(try await add("pa cker@shop.test", "orders", "a long password").errorType == "invalid_email")
            #expect(try await add("packer@shop\u{7}.test", "orders", "a long password").errorType == "invalid_email")
            // Twelve characters as JSON Schema counts them (Unicode scalars), fewer as graphemes.
            #expect(
                try await add("e\u{301}@shop.test", "orders", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}").status
                    == 201)
            // An emoji modifier after the `@` makes one Character of them; the `@` is still there.
            #expect(try await add("a@\u{1F3FB}shop.test", "orders", "a long password").status == 201)
            let added = try await add("\r\n Packer@Shop.test\t\n", "orders", "a long password")
            #expect(added.status == 201)
            #expect(try added.decode(StaffBody.self) == StaffBody(email: "packer@shop.test", role: "orders"))
            #expect(try await add("packer@shop.test", "catalog", "another long one").errorType == "email_taken")
            let packer = try await store.staffToken("packer@shop.test", "a long password")
            let list = try await store.send(AdminEndpoints.staff, token: owner)
            #expect(
                try list.decode([StaffBody].self).map(\.email) == [
                    "owner@onlinestore.test", "e\u{301}@shop.test", "a@\u{1F3FB}shop.test", "packer@shop.test",
                ])
            #expect(try await store.send(AdminEndpoints.staff, token: packer).status == 403)
            #expect(
                try await store.database.audit.entries().contains {
                    $0.action == "staff.added" && $0.actor == "owner@onlinestore.test"
                })
        }
    }

    @Test(
        "a staff session ends after 30 minutes unused, after 8 hours in all, and at sign-out",
        arguments: [Backend.sqlite])
    func sessionLifetime(backend: Backend) async throws {
        let time = MovableClock()
        try await TestStore.with(backend, clock: time.clock) { store in
            let staffList = { (token: String) in try await store.send(AdminEndpoints.staff, token: token).status }
            let idle = try await store.ownerToken()
            time.advance(by: 29 * 60)
            #expect(try await staffList(idle) == 200)
            time.advance(by: 31 * 60)
            #expect(try await staffList(idle) == 401)

            let busy = try await store.ownerToken()
            for _ in 0..<23 {
                time.advance(by: 20 * 60)
                #expect(try await staffList(busy) == 200)
            }
            time.advance(by: 20 * 60)  // 8 h in all
            #expect(try await staffList(busy) == 401)

            let leaving = try await store.ownerToken()
            #expect(try await store.send(AdminEndpoints.endSession, token: leaving).status == 204)
            #expect(try await staffList(leaving) == 401)
        }
    }

    @Test("staff sign-in is throttled like a customer's", arguments: [Backend.sqlite])
    func throttled(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            var statuses: [Int] = []
            for _ in 0..<6 {
                statuses.append(
                    try await store.send(
                        AdminEndpoints.createSession,
                        body: StaffSignInRequest(email: "owner@onlinestore.test", password: "guess")
                    ).status)
            }
            #expect(statuses == [401, 401, 401, 401, 401, 429])
        }
    }
}
