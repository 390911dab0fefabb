/// The attributes the store's pages use, named as in HTML.
extension Attribute {
    /// How a form is sent.
    public enum FormMethod: String, Sendable {
        case get
        case post
    }

    /// The values of `aria-live`.
    public enum Politeness: String, Sendable {
        case polite
        case assertive
    }

    // MARK: Global attributes

    public static func `class`(_ value: String) -> Attribute { Attribute("class", value) }
    public static func id(_ value: String) -> Attribute { Attribute("id", value) }
    public static func lang(_ value: String) -> Attribute { Attribute("lang", value) }
    public static func role(_ value: String) -> Attribute { Attribute("role", value) }
    public static func hidden(_ isHidden: Bool = true) -> Attribute { .boolean("hidden", isHidden) }

    // MARK: Accessibility

    public static func ariaLive(_ value: Politeness) -> Attribute { Attribute("aria-live", value.rawValue) }
    public static func ariaLabel(_ value: String) -> Attribute { Attribute("aria-label", value) }
    public static func ariaLabelledBy(_ id: String) -> Attribute { Attribute("aria-labelledby", id) }
    public static func ariaDescribedBy(_ id: String) -> Attribute { Attribute("aria-describedby", id) }
    public static func ariaCurrent(_ value: String) -> Attribute { Attribute("aria-current", value) }
    public static func ariaInvalid(_ isInvalid: Bool) -> Attribute {
        isInvalid ? Attribute("aria-invalid", "true") : .boolean("aria-invalid", false)
    }
    public static func ariaHidden(_ isHidden: Bool) -> Attribute {
        isHidden ? Attribute("aria-hidden", "true") : .boolean("aria-hidden", false)
    }

    // MARK: Document head

    public static func charset(_ value: String) -> Attribute { Attribute("charset", value) }
    public static func name(_ value: String) -> Attribute { Attribute("name", value) }
    public static func content(_ value: String) -> Attribute { Attribute("content", value) }
    public static func rel(_ value: String) -> Attribute { Attribute("rel", value) }

    // MARK: Links and images

    public static func href(_ value: String) -> Attribute { Attribute("href", value) }
    public static func src(_ value: String) -> Attribute { Attribute("src", value) }
    public static func alt(_ value: String) -> Attribute { Attribute("alt", value) }
    public static func width(_ value: Int) -> Attribute { Attribute("width", String(value)) }
    public static func height(_ value: Int) -> Attribute { Attribute("height", String(value)) }
    public static func loading(_ value: String) -> Attribute { Attribute("loading", value) }

    // MARK: Forms

    public static func action(_ value: String) -> Attribute { Attribute("action", value) }
    public static func method(_ value: FormMethod) -> Attribute { Attribute("method", value.rawValue) }
    public static func `for`(_ id: String) -> Attribute { Attribute("for", id) }
    public static func type(_ value: String) -> Attribute { Attribute("type", value) }
    public static func value(_ value: String) -> Attribute { Attribute("value", value) }
    public static func min(_ value: Int) -> Attribute { Attribute("min", String(value)) }
    public static func max(_ value: Int) -> Attribute { Attribute("max", String(value)) }
    public static func step(_ value: Int) -> Attribute { Attribute("step", String(value)) }
    public static func maxlength(_ value: Int) -> Attribute { Attribute("maxlength", String(value)) }
    public static func autocomplete(_ value: String) -> Attribute { Attribute("autocomplete", value) }
    public static func inputmode(_ value: String) -> Attribute { Attribute("inputmode", value) }
    public static func autocapitalize(_ value: String) -> Attribute { Attribute("autocapitalize", value) }
    public static func spellcheck(_ isOn: Bool) -> Attribute { Attribute("spellcheck", isOn ? "true" : "false") }
    public static func required(_ isRequired: Bool = true) -> Attribute { .boolean("required", isRequired) }
    public static func checked(_ isChecked: Bool = true) -> Attribute { .boolean("checked", isChecked) }
    public static func selected(_ isSelected: Bool = true) -> Attribute { .boolean("selected", isSelected) }
    public static func disabled(_ isDisabled: Bool = true) -> Attribute { .boolean("disabled", isDisabled) }

    // MARK: Tables and times

    public static func scope(_ value: String) -> Attribute { Attribute("scope", value) }
    public static func datetime(_ value: String) -> Attribute { Attribute("datetime", value) }
}
