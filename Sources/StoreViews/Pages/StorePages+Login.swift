import HTML

extension StorePages {
    /// The login form at `/login`: **Email**, **Password**, **Log in**. Logging in keeps the
    /// basket.
    public static func login(_ page: LoginPage, context: PageContext) -> HTMLDocument {
        var emailAttributes: [Attribute] = [
            .type("email"), .id("email"), .name(FormFields.email), .value(page.email), .autocomplete("username"),
            .required(),
        ]
        if page.error != nil { emailAttributes += [.ariaInvalid(true), .ariaDescribedBy("login-error")] }
        return PageLayout.document(
            title: "Log in", context: context, section: .login,
            .h1("Log in"),
            .div(
                [.class("narrow")],
                page.error.map { .p([.id("login-error"), .class("notice notice-error")], $0) } ?? .empty,
                Forms.post(
                    StorePaths.login, context: context, class: "login-form",
                    .div([.class("field")], .label([.for("email")], "Email"), .input(emailAttributes)),
                    .div(
                        [.class("field")],
                        .label([.for("password")], "Password"),
                        .input([
                            .type("password"), .id("password"), .name(FormFields.password),
                            .autocomplete("current-password"), .required(),
                        ])),
                    Forms.submit("Log in", style: .primary)),
                .p([.class("hint")], "Your basket is kept when you log in.")))
    }
}
