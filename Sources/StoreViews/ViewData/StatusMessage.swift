/// A short sentence saying what the shopper's last action did, shown in the page's
/// `aria-live="polite"` region so screen readers announce it.
public struct StatusMessage: Hashable, Sendable {
    /// How the message is styled: a confirmation, neutral news, or a problem.
    public enum Kind: String, Hashable, Sendable {
        case success
        case info
        case error
    }

    public var text: String
    public var kind: Kind

    public init(_ text: String, kind: Kind = .success) {
        self.text = text
        self.kind = kind
    }
}
