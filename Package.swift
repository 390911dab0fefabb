// swift-tools-version: 6.1
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "OnlineStore",
    platforms: [.macOS(.v14), .iOS(.v17)],
    targets: [
        // The SQL vocabulary both database drivers speak: values, queries with binds, rows, errors.
        .target(name: "StoreSQL", swiftSettings: strictSwift),

        // libmicrohttpd, the C HTTP server the HTTPServer target wraps (Debian: libmicrohttpd-dev).
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        // A small HTTP/1.1 server over libmicrohttpd: requests, responses, routing, middleware.
        // Knows nothing of the store; nothing above it sees a C type.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"], swiftSettings: strictSwift),

        .testTarget(name: "StoreSQLTests", dependencies: ["StoreSQL"], swiftSettings: strictSwift),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"], swiftSettings: strictSwift),
    ]
)
