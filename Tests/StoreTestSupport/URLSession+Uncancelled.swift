import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// `data(for:)` in a task of its own, which the caller's cancellation never reaches: the
    /// transfer ends with its answer, its error or its own timeout.
    ///
    /// On Linux, FoundationNetworking cancels a transfer from the cancelled task's handler, which
    /// runs under the task's status lock and waits for the session's queue; a transfer failing at
    /// that moment (a server killed by a chaos test) resumes its caller from that queue and waits
    /// for the same lock. The test process then hangs for good, and a failure that made a task
    /// group cancel its other requests is never reported. The tests' clients call this instead.
    public func uncancelledData(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await Task { try await self.data(for: request) }.value
    }
}
