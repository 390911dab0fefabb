/// Why an operation on money could not give an exact answer.
public enum MoneyError: Error, Hashable, Sendable {
    /// Two amounts in different currencies met in one operation. There is no silent conversion.
    case currencyMismatch(Currency, Currency)
    /// The exact result does not fit in the range the store holds amounts in.
    case overflow
}

extension MoneyError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .currencyMismatch(let lhs, let rhs): "cannot combine \(lhs.code) with \(rhs.code)"
        case .overflow: "the amount is too large"
        }
    }
}
