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

        // libpq, the PostgreSQL client library (Debian: libpq-dev, headers under /usr/include/postgresql).
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // StoreSQL's connection and database protocols over libpq; no C type leaves this target.
        .target(name: "PostgresDriver", dependencies: ["StoreSQL", "CLibPQ"], swiftSettings: strictSwift),

        .testTarget(name: "StoreSQLTests", dependencies: ["StoreSQL"], swiftSettings: strictSwift),
        .testTarget(
            name: "PostgresDriverTests", dependencies: ["PostgresDriver", "StoreSQL"], swiftSettings: strictSwift),
    ]
)
