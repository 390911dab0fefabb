import CheckoutKit
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// The back office's JSON API: staff sign-in and sign-out, and the staff themselves (owner).
struct AdminRoutes: Sendable {
    let staff: StaffService

    func register(on routes: inout RouteTable) {
        routes.open(AdminEndpoints.createSession) { request, _ in
            let body = try request.decodeJSON(StaffSignInRequest.self)
            let (token, member) = try await staff.signIn(
                email: body.email, password: body.password, address: request.clientAddress)
            return try respond(StaffSessionResponse(token: token.text, staff: StaffBody(member)), status: .created)
        }
        routes.staff(AdminEndpoints.endSession) { _, caller in
            try await staff.end(caller.token)
            return Response(status: .noContent)
        }
        routes.staff(AdminEndpoints.staff) { _, _ in
            try respond(try await staff.members().map(StaffMemberBody.init))
        }
        routes.staff(AdminEndpoints.addStaff) { request, caller in
            let body = try request.decodeJSON(NewStaffRequest.self)
            guard let role = StaffRole(rawValue: body.role) else {
                throw HTTPError(
                    .unprocessableContent, type: "invalid_role", message: "A role is owner, catalog or orders.",
                    field: "role")
            }
            let added = try await staff.add(
                email: body.email, role: role, password: body.password, by: caller.staff.actor)
            return try respond(StaffMemberBody(added), status: .created)
        }
    }
}

extension StaffBody {
    init(_ staff: StaffRecord) {
        self.init(email: staff.email, role: staff.role.rawValue)
    }
}
