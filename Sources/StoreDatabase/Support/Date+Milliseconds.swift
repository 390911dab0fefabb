import Foundation

extension Date {
    /// Whole milliseconds since 1970-01-01 UTC: how instants are stored, on both backends.
    public var unixMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1_000).rounded(.down))
    }

    public init(unixMilliseconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(unixMilliseconds) / 1_000)
    }
}
