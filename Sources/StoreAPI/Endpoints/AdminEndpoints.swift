import CheckoutKit

/// The back office's JSON API (docs/BEHAVIOUR.md §13): staff bearer tokens, each route open to the
/// roles whose permissions it names.
public enum AdminEndpoints {
    /// A staff session (201): `{token, staff: {email, role}}`; 401 as for customers.
    public static let createSession = Endpoint<StaffSignInRequest, StaffSessionResponse>(.post, "/api/admin/sessions")
    /// Ends the bearer's staff session (204).
    public static let endSession = Endpoint<NoBody, NoBody>(.post, "/api/admin/logout", access: .staff(nil))
    /// Every member of staff (owner).
    public static let staff = Endpoint<NoBody, [StaffBody]>(.get, "/api/admin/staff", access: .staff(.manageStaff))
    /// Adds a member of staff (owner) → 201.
    public static let addStaff = Endpoint<NewStaffRequest, StaffBody>(
        .post, "/api/admin/staff", access: .staff(.manageStaff))
}
