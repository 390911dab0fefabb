import Foundation
import StoreAPI

/// Keeps the subscription facts in a JSON file, written atomically (a crash leaves the old file
/// or the new one, never half of one).
public struct FileSubscriptionCache: SubscriptionCache {
    /// The file's location, e.g. in the app's Application Support directory.
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public func load() throws -> CachedSubscription? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try StoreJSON.decoder.decode(CachedSubscription.self, from: Data(contentsOf: url))
    }

    public func save(_ subscription: CachedSubscription) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try StoreJSON.encoder.encode(subscription).write(to: url, options: .atomic)
    }

    public func remove() throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        try FileManager.default.removeItem(at: url)
    }
}
