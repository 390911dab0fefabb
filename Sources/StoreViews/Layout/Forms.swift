import CheckoutKit
import HTML

/// The building blocks of the storefront's forms: POST forms that always carry the CSRF token,
/// hidden fields, and buttons.
enum Forms {
    /// How prominent a button is.
    enum ButtonStyle {
        /// The one main action of a page: **Checkout**, **Pay**.
        case primary
        /// Ordinary actions: **Update**, **Apply**, **Add to basket**.
        case secondary
        /// Actions that take something away: **Remove**.
        case quiet
    }

    /// A state-changing form: `method="post"` to `action`, with the session's hidden `csrf` field
    /// first. Every POST form of the storefront is made here, so none can forget the token.
    static func post(_ action: String, context: PageContext, class className: String, _ children: Node...) -> Node {
        .form(
            [.method(.post), .action(action), .class(className)],
            hidden(FormFields.csrf, context.csrfToken),
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

    /// A link that looks like a button, for navigation such as "Continue shopping".
    static func buttonLink(_ label: String, href: String, style: ButtonStyle = .secondary) -> Node {
        .a([.href(href), .class(buttonClass(style))], label)
    }

    /// The Quantity number field (1…10), labelled **Quantity**.
    static func quantityField(id: String, value: Int) -> Node {
        .div(
            [.class("field field-quantity")],
            .label([.for(id)], "Quantity"),
            .input([
                .type("number"), .id(id), .name(FormFields.quantity), .value(String(value)),
                .min(Quantity.range.lowerBound), .max(Quantity.range.upperBound),
                .step(1), .inputmode("numeric"), .required(),
            ]))
    }

    private static func buttonClass(_ style: ButtonStyle) -> String {
        switch style {
        case .primary: "button button-primary"
        case .secondary: "button"
        case .quiet: "button button-quiet"
        }
    }
}
