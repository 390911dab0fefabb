/// One attribute of an element: a name written in source code and a value that is always escaped.
///
/// Build attributes with the helpers in `Attribute+Common.swift` (`.class("card")`,
/// `.href("/basket")`, `.checked(isChosen)`), or with ``init(_:_:)`` for any other name.
public struct Attribute: Sendable {
    /// An attribute's value: text, or for a boolean attribute whether it is present.
    enum Value: Sendable {
        case text(String)
        case present
        case absent
    }

    let name: StaticString
    let value: Value

    /// An attribute with a text value, escaped when rendered: `name="value"`.
    public init(_ name: StaticString, _ value: String) {
        self.name = name
        self.value = .text(value)
    }

    private init(name: StaticString, value: Value) {
        self.name = name
        self.value = value
    }

    /// A boolean attribute such as `required` or `checked`: rendered as its bare name when `isOn`,
    /// and not at all otherwise.
    public static func boolean(_ name: StaticString, _ isOn: Bool = true) -> Attribute {
        Attribute(name: name, value: isOn ? .present : .absent)
    }
}
