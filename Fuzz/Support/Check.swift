// Shared by every fuzz target (scripts/fuzz.sh compiles it into each).
#if canImport(Glibc)
import Glibc
#endif

/// Stops the run when an invariant fails, printing why. Optimized builds drop `precondition`'s
/// message, and the message is what tells a reproducer's story.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    guard !condition else { return }
    fputs("invariant failed: \(message())\n", stderr)
    abort()
}

/// Stops the run: something that must not happen did.
func fail(_ message: String) -> Never {
    fputs("invariant failed: \(message)\n", stderr)
    abort()
}
