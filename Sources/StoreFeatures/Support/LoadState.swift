/// Where a screen's data stands: not asked for yet, on its way, here, or failed with a message
/// for people (the screen offers "Try again").
public enum LoadState<Value> {
    case notStarted
    case loading
    case loaded(Value)
    case failed(message: String)

    /// The data, once loaded.
    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// Whether a load is on its way or done — the states in which another load does nothing.
    var isLoadingOrLoaded: Bool {
        switch self {
        case .loading, .loaded: true
        case .notStarted, .failed: false
        }
    }

    /// The message for people, once failed.
    public var failureMessage: String? {
        if case .failed(let message) = self { return message }
        return nil
    }
}

extension LoadState: Equatable where Value: Equatable {}
extension LoadState: Hashable where Value: Hashable {}
extension LoadState: Sendable where Value: Sendable {}
