#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting for SIGINT and SIGTERM on the main thread, for a server executable:
///
/// ```swift
/// TerminationSignals.block()            // first thing, before any thread starts
/// try server.start()
/// TerminationSignals.wait()
/// await server.shutdown()
/// ```
///
/// Blocked signals stay pending instead of killing the process or being taken by a thread that
/// does not expect them; ``wait()`` then takes them with `sigwait`. A library that starts threads
/// of its own (the HTTP server's network threads) blocks ``signals()`` in them too.
public enum TerminationSignals {
    /// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts afterwards.
    public static func block() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until SIGINT or SIGTERM arrives and returns its number. Call ``block()`` first.
    @discardableResult
    public static func wait() -> Int32 {
        var set = signals()
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// The set of signals that ask the process to stop: SIGINT and SIGTERM.
    public static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
