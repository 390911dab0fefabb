import HTML

extension AdminPages {
    /// The staff sign-in form at `/admin/login`: **Email**, **Password**, **Log in**, and why the
    /// last attempt failed. No navigation: nobody is signed in yet.
    public static func login(_ page: AdminLoginPage, context: AdminContext) -> HTMLDocument {
        let error = page.problem?.message
        let email = AdminForms.Field(
            id: "email", name: AdminFormFields.email, label: "Email", error: error, isRequired: true)
        let password = AdminForms.Field(
            id: "password", name: AdminFormFields.password, label: "Password", isRequired: true)
        return AdminLayout.document(
            title: "Log in", context: context, section: nil, navigation: false,
            .h1("Log in to the back office"),
            .div(
                [.class("narrow")],
                AdminForms.post(
                    AdminPaths.login, context: context, class: "panel login-form",
                    AdminForms.input(
                        email, type: "email", value: page.email,
                        [.autocomplete("username"), .spellcheck(false), .autocapitalize("none")]),
                    AdminForms.input(password, type: "password", value: nil, [.autocomplete("current-password")]),
                    page.next.map { AdminForms.hidden(AdminFormFields.next, $0) } ?? .fragment([]),
                    AdminForms.submit("Log in", style: .primary)),
                .p([.class("hint")], "For the shop's staff. Customers log in on the shop.")))
    }
}
