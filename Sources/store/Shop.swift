import Foundation
import StoreClient
import StoreFeatures
import StoreShop

/// `store shop`: the app's root model over the live client, on the main actor, shown full screen
/// or line by line. Never returns.
func runShop(_ options: StoreCommand.ShopOptions) -> Never {
    guard let server = URL(string: options.server) else { fail("--server is not a URL", code: 64) }
    Task { @MainActor in
        let client = LiveStoreClient(baseURL: server)
        let root = RootModel(
            dependencies: AppDependencies(
                clients: StoreClients(client), subscriptionCache: FileSubscriptionCache(url: subscriptionCacheURL()),
                locale: Locale(identifier: "en_US")))
        if options.plain || isatty(STDIN_FILENO) == 0 {
            let shop = PlainShop(
                root: root, readLine: { Swift.readLine(strippingNewline: true) },
                write: { line in FileHandle.standardOutput.write(Data((line + "\n").utf8)) })
            await shop.run()
        } else {
            await ScreenShop(root: root).run()
        }
        exit(0)
    }
    dispatchMain()
}

/// Where the shop keeps the last confirmed subscription facts: `$XDG_CACHE_HOME/onlinestore` or
/// `~/.cache/onlinestore`.
private func subscriptionCacheURL() -> URL {
    let environment = ProcessInfo.processInfo.environment
    let base =
        environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
    return base.appendingPathComponent("onlinestore").appendingPathComponent("subscription.json")
}
