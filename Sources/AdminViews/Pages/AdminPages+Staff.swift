import CheckoutKit
import HTML

extension AdminPages {
    /// The staff at `/admin/staff` (owner only): each member (email, role, added) with **Remove**
    /// (never for the viewer, nor for the last owner), and **Add staff** (**Email**, **Role**,
    /// **Password**).
    public static func staff(_ page: AdminStaffPage, context: AdminContext) -> HTMLDocument {
        let form = page.form
        func field(
            _ field: AdminStaffPage.NewMemberForm.Field, _ label: String, hint: String? = nil
        )
            -> AdminForms.Field
        {
            AdminForms.Field(
                id: "staff-\(field.rawValue)", name: field.rawValue, label: label, hint: hint,
                error: form.errors[field], isRequired: true)
        }
        let problems = AdminStaffPage.NewMemberForm.Field.allCases.compactMap { field in
            form.errors[field].map { ("staff-\(field.rawValue)", $0) }
        }
        let owners = page.members.filter { $0.role == .owner }.count
        let viewer = context.staff?.email.lowercased()
        let rows = page.members.map { member in
            let emailID = "member-\(member.id)"
            let removal: Node
            if member.email.lowercased() == viewer {
                removal = .span([.class("quiet")], "You")
            } else if member.role == .owner && owners == 1 {
                removal = .span([.class("quiet")], "The last owner")
            } else {
                removal = AdminForms.post(
                    AdminPaths.removeStaff(member.id), context: context, class: "inline-form",
                    AdminForms.submit("Remove", style: .danger, describedBy: emailID))
            }
            return AdminTables.Row(
                [],
                .heading(.span([.id(emailID)], member.email)),
                .init(member.role.label),
                .init(context.dateText(member.addedAt)),
                .init(removal))
        }
        return AdminLayout.document(
            title: problems.isEmpty ? "Staff" : "Staff (has problems)", context: context, section: .staff,
            .h1("Staff"),
            AdminForms.errorSummary(id: "problems", problems),
            AdminTables.table(
                id: "staff", caption: "Members of staff",
                columns: [.init("Email"), .init("Role"), .init("Added"), .init("Action")], rows: rows),
            .section(
                [.class("panel"), .ariaLabelledBy("add-staff-title")],
                .h2([.id("add-staff-title")], "Add staff"),
                AdminForms.post(
                    AdminPaths.staff, context: context, class: "staff-form",
                    AdminForms.input(
                        field(.email, "Email"), type: "email", value: form.email,
                        [.autocomplete("off"), .spellcheck(false), .autocapitalize("none")]),
                    AdminForms.select(
                        field(.role, "Role"),
                        options: StaffRole.allCases.map { ($0.rawValue, "\($0.label) — \($0.summary)") },
                        selected: form.role?.rawValue, placeholder: "Choose a role"),
                    AdminForms.input(
                        field(
                            .password, "Password",
                            hint: "Their first password: at least \(AdminStaffPage.minimumPasswordLength) characters. "
                                + "Give it to them in person."),
                        type: "password", value: nil,
                        [.autocomplete("new-password"), .minlength(AdminStaffPage.minimumPasswordLength)]),
                    AdminForms.submit("Add staff", style: .primary))))
    }
}
