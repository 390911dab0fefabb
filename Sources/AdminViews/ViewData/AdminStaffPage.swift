import CheckoutKit
import Foundation

/// The staff at `/admin/staff` (owner only): each member with **Remove**, and **Add staff**.
public struct AdminStaffPage: Hashable, Sendable {
    /// A member of staff.
    public struct Member: Hashable, Sendable, Identifiable {
        public var id: Int64
        public var email: String
        public var role: StaffRole
        public var addedAt: Date

        public init(id: Int64, email: String, role: StaffRole, addedAt: Date) {
            self.id = id
            self.email = email
            self.role = role
            self.addedAt = addedAt
        }
    }

    /// The **Add staff** form, as typed (never the password), with its problems.
    public struct NewMemberForm: Hashable, Sendable {
        /// A field of the form.
        public enum Field: String, CaseIterable, Hashable, Sendable {
            case email
            case role
            case password
        }

        public var email: String
        /// The role chosen; `nil` before one is.
        public var role: StaffRole?
        /// "That email already belongs to a member of staff.", "A password has at least 12 characters."
        public var errors: [Field: String]

        public init(email: String = "", role: StaffRole? = nil, errors: [Field: String] = [:]) {
            self.email = email
            self.role = role
            self.errors = errors
        }
    }

    /// The shortest first password.
    public static let minimumPasswordLength = 12

    /// In the order they were added.
    public var members: [Member]
    public var form: NewMemberForm

    public init(members: [Member], form: NewMemberForm = NewMemberForm()) {
        self.members = members
        self.form = form
    }
}
