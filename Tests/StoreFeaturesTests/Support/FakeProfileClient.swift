import StoreAPI
import StoreClient
import Testing

/// A ``ProfileClient`` that answers only what a test set up; any other call fails the test.
@MainActor
final class FakeProfileClient: ProfileClient {
    var onProfile: (@MainActor () async -> Result<ProfileBody, StoreClientError>)?
    private(set) var profileCalls = 0

    func profile() async throws(StoreClientError) -> ProfileBody {
        profileCalls += 1
        guard let onProfile else { throw unexpectedCall("ProfileClient.profile()") }
        return try await onProfile().get()
    }
}
