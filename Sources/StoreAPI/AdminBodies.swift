import CheckoutKit

/// `POST /api/admin/sessions`: a member of staff's email and password.
public struct StaffSignInRequest: Codable, Hashable, Sendable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// A member of staff as the back office's API shows them: never a password or its hash.
public struct StaffBody: Codable, Hashable, Sendable {
    public var email: String
    /// `owner`, `catalog` or `orders`.
    public var role: String

    public init(email: String, role: String) {
        self.email = email
        self.role = role
    }
}

/// The answer to a staff sign-in: the session's bearer token, and who it is.
public struct StaffSessionResponse: Codable, Hashable, Sendable {
    public var token: String
    public var staff: StaffBody

    public init(token: String, staff: StaffBody) {
        self.token = token
        self.staff = staff
    }
}

/// `POST /api/admin/staff`: a member of staff to add, with a first password.
public struct NewStaffRequest: Codable, Hashable, Sendable {
    public var email: String
    public var role: String
    public var password: String

    public init(email: String, role: String, password: String) {
        self.email = email
        self.role = role
        self.password = password
    }
}
