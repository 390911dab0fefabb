import HTML

/// The building blocks of the back office's forms: POST forms that always carry the CSRF token,
/// labelled fields with their hints and errors, the summary of a form's problems, and buttons.
enum AdminForms {
    /// How prominent a button is.
    enum ButtonStyle {
        /// The one main action of a form: **Save**, **Import**.
        case primary
        /// Ordinary actions: **Filter**, **Preview**.
        case secondary
        /// Actions that take something away: **Remove**, **Disable**, **Cancel order**.
        case danger
    }

    /// A state-changing form: `method="post"` to `action`, with the session's hidden `csrf` field
    /// first; `multipart` for a file upload. Every POST form of the back office is made here, so
    /// none can forget the token.
    static func post(
        _ action: String, context: AdminContext, class className: String, multipart: Bool = false,
        labelledBy: String? = nil, _ children: Node...
    ) -> Node {
        var attributes: [Attribute] = [.method(.post), .action(action), .class(className)]
        if multipart { attributes.append(.enctype("multipart/form-data")) }
        if let labelledBy { attributes.append(.ariaLabelledBy(labelledBy)) }
        return .form(attributes, hidden(AdminFormFields.csrf, context.csrfToken), .fragment(children))
    }

    /// A GET form whose state lives in the query string: a search or a filter.
    static func search(_ action: String, class className: String, label: String, _ children: Node...) -> Node {
        .form(
            [.method(.get), .action(action), .class(className), .role("search"), .ariaLabel(label)],
            .fragment(children))
    }

    static func hidden(_ name: String, _ value: String) -> Node {
        .input([.type("hidden"), .name(name), .value(value)])
    }

    /// A submit button; `describedBy` names the element that says which item it acts on.
    static func submit(_ label: String, style: ButtonStyle = .secondary, describedBy: String? = nil) -> Node {
        var attributes: [Attribute] = [.type("submit"), .class(buttonClass(style))]
        if let describedBy { attributes.append(.ariaDescribedBy(describedBy)) }
        return .button(attributes, label)
    }

    /// A link that looks like a button, for navigation such as **New product**.
    static func buttonLink(_ label: String, href: String, style: ButtonStyle = .secondary) -> Node {
        .a([.href(href), .class(buttonClass(style))], label)
    }

    private static func buttonClass(_ style: ButtonStyle) -> String {
        switch style {
        case .primary: "button button-primary"
        case .secondary: "button"
        case .danger: "button button-danger"
        }
    }

    // MARK: Fields

    /// What every field has: its id, the name it is sent under, its visible label, an optional
    /// hint, and the error to show beside it.
    struct Field {
        let id: String
        let name: String
        let label: String
        var hint: String?
        var error: String?
        var isRequired = false

        var hintID: String { "\(id)-hint" }
        var errorID: String { "\(id)-error" }

        /// `aria-describedby` naming the hint and the error, and `aria-invalid` with an error.
        var describing: [Attribute] {
            let described = [hint.map { _ in hintID }, error.map { _ in errorID }].compactMap { $0 }
            var attributes: [Attribute] = described.isEmpty ? [] : [.ariaDescribedBy(described.joined(separator: " "))]
            if error != nil { attributes.append(.ariaInvalid(true)) }
            if isRequired { attributes.append(.required()) }
            return attributes
        }

        /// The label, the hint and the error, in that order, before the control.
        var heading: Node {
            .fragment(
                .label([.for(id)], label),
                hint.map { .p([.id(hintID), .class("hint")], $0) } ?? .empty,
                error.map { .p([.id(errorID), .class("field-error")], $0) } ?? .empty)
        }

        /// The class of the field's wrapper.
        var wrapperClass: String { error == nil ? "field" : "field field-invalid" }
    }

    /// A one-line text field (or `type` email, password, number, date, datetime-local, search).
    static func input(_ field: Field, type: String = "text", value: String?, _ extra: [Attribute] = []) -> Node {
        var attributes: [Attribute] = [.type(type), .id(field.id), .name(field.name)]
        if let value { attributes.append(.value(value)) }
        return .div(
            [.class(field.wrapperClass)],
            field.heading,
            .input(attributes + field.describing + extra))
    }

    /// A multi-line text field.
    static func textarea(_ field: Field, value: String, rows: Int = 5, _ extra: [Attribute] = []) -> Node {
        .div(
            [.class(field.wrapperClass)],
            field.heading,
            .textarea([.id(field.id), .name(field.name), .rows(rows)] + field.describing + extra, value))
    }

    /// A menu of `options` (value, text); the one whose value is `selected` is chosen, or with
    /// `placeholder` an empty first choice is while none is.
    static func select(
        _ field: Field, options: [(value: String, text: String)], selected: String?, placeholder: String? = nil
    ) -> Node {
        let choices =
            (placeholder.map { [Node.option([.value(""), .selected(selected == nil)], $0)] } ?? [])
            + options.map { option in
                Node.option([.value(option.value), .selected(option.value == selected)], option.text)
            }
        return .div(
            [.class(field.wrapperClass)],
            field.heading,
            .select([.id(field.id), .name(field.name)] + field.describing, .fragment(choices)))
    }

    /// A checkbox sending ``AdminFormFields/checkedValue`` when checked; its label follows it.
    static func checkbox(_ field: Field, checked: Bool) -> Node {
        .div(
            [.class(field.error == nil ? "field field-check" : "field field-check field-invalid")],
            .input(
                [
                    .type("checkbox"), .id(field.id), .name(field.name), .value(AdminFormFields.checkedValue),
                    .checked(checked),
                ] + field.describing),
            .label([.for(field.id)], field.label),
            field.hint.map { .p([.id(field.hintID), .class("hint")], $0) } ?? .empty,
            field.error.map { .p([.id(field.errorID), .class("field-error")], $0) } ?? .empty)
    }

    /// A file chooser taking `accept` (`image/png,image/jpeg`, `.csv,text/csv`).
    static func file(_ field: Field, accept: String) -> Node {
        .div(
            [.class(field.wrapperClass)],
            field.heading,
            .input([.type("file"), .id(field.id), .name(field.name), .accept(accept)] + field.describing))
    }

    /// The problems of a form, before it: each a link to its field. Nothing without problems.
    static func errorSummary(id: String, _ problems: [(fieldID: String, message: String)]) -> Node {
        guard !problems.isEmpty else { return .empty }
        let headingID = "\(id)-title"
        return .section(
            [.id(id), .class("error-summary"), .ariaLabelledBy(headingID)],
            .h2(
                [.id(headingID)],
                problems.count == 1 ? "There is a problem" : "There are \(problems.count) problems"),
            .ul(
                [],
                .fragment(problems.map { .li([], .a([.href("#\($0.fieldID)")], $0.message)) })))
    }
}
