import Foundation

/// How sure the app is of the tier it shows (docs/BEHAVIOUR.md §10).
public enum TierConfirmation: Hashable, Sendable {
    /// No facts were ever saved: the tier is not known yet.
    case notKnownYet
    /// The server confirmed the facts since this screen was opened.
    case confirmedNow
    /// The facts come from the device, as the server confirmed them at that time.
    case lastConfirmed(at: Date)
}
