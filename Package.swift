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

        // The system SQLite library (headers and link flags from pkg-config).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // The SQLite implementation of StoreSQL's connection and database protocols.
        .target(name: "SQLiteDriver", dependencies: ["StoreSQL", "CSQLite"], swiftSettings: strictSwift),

        .testTarget(name: "StoreSQLTests", dependencies: ["StoreSQL"], swiftSettings: strictSwift),
        .testTarget(
            name: "SQLiteDriverTests",
            dependencies: ["SQLiteDriver", "StoreSQL"],
            swiftSettings: strictSwift
        ),
    ]
)
