// swift-tools-version: 6.1
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

/// What the suites over a running store depend on.
let storeTestDependencies: [Target.Dependency] = [
    "StoreServer", "StoreServices", "StoreDatabase", "StoreAPI", "CheckoutKit", "StoreCrypto", "PaymentProvider",
    "StoreTestSupport", "StoreServerTestSupport", "TestWaiting", "AdminViews", "CatalogFiles",
]

let package = Package(
    name: "OnlineStore",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "CheckoutKit", targets: ["CheckoutKit"]),
        .library(name: "StoreAPI", targets: ["StoreAPI"]),
        .library(name: "StoreClient", targets: ["StoreClient"]),
        .library(name: "StoreClientInProcess", targets: ["StoreClientInProcess"]),
        .library(name: "StoreFeatures", targets: ["StoreFeatures"]),
    ],
    targets: [
        // Pure domain rules: money, pricing, promotions, fees, payment methods, tiers. Foundation only.
        .target(name: "CheckoutKit", swiftSettings: strictSwift),
        // The JSON wire types shared by the server and the client.
        .target(name: "StoreAPI", dependencies: ["CheckoutKit"], swiftSettings: strictSwift),
        // The API as the app sees it: one protocol per part of the API, the typed error every answer
        // maps to, and the live client over a transport (URLSession). No server code.
        .target(
            name: "StoreClient", dependencies: ["StoreAPI", "CheckoutKit", "Concurrency"], swiftSettings: strictSwift),
        // StoreClient's transport answered by an HTTPServer router in process, without a socket.
        .target(
            name: "StoreClientInProcess", dependencies: ["StoreClient", "HTTPServer"], swiftSettings: strictSwift),
        // The app's screen models: @Observable, main-actor, platform-neutral, over StoreClient's protocols.
        .target(
            name: "StoreFeatures", dependencies: ["StoreClient", "StoreAPI", "CheckoutKit"], swiftSettings: strictSwift),
        // The terminal storefront (`store shop`): the app's models driven from a terminal.
        .target(
            name: "StoreShop", dependencies: ["StoreFeatures", "StoreClient", "StoreAPI", "CheckoutKit", "CNCurses"],
            swiftSettings: strictSwift),
        // The files a merchant hands the catalog and takes from it: the catalog's CSV (read with
        // every problem by line, written so that reading it back changes nothing) and product
        // images checked by their content. Pure: bytes in, values or problems out.
        .target(name: "CatalogFiles", dependencies: ["CheckoutKit"], swiftSettings: strictSwift),
        // The back office's pages as pure functions from view data to HTML. Imports neither the
        // database nor HTTP.
        .target(
            name: "AdminViews", dependencies: ["HTML", "CheckoutKit", "StoreViews"], swiftSettings: strictSwift),
        // A tiny HTML builder that escapes every text and attribute value; knows nothing of the store.
        .target(name: "HTML", swiftSettings: strictSwift),
        // The web storefront's pages as pure functions from view data to HTML, and its stylesheet.
        // Imports neither the database nor HTTP.
        .target(name: "StoreViews", dependencies: ["HTML", "CheckoutKit", "StoreAPI"], swiftSettings: strictSwift),
        // One lock box and one pool of threads for blocking C calls, shared by the drivers and the servers.
        .target(name: "Concurrency", swiftSettings: strictSwift),
        // The SQL vocabulary both database drivers speak: values, queries with binds, rows, errors.
        .target(name: "StoreSQL", swiftSettings: strictSwift),
        // The SQLite implementation of StoreSQL's connection and database protocols.
        .target(
            name: "SQLiteDriver", dependencies: ["StoreSQL", "Concurrency", "CSQLite"], swiftSettings: strictSwift),
        // StoreSQL's connection and database protocols over libpq; no C type leaves this target.
        .target(
            name: "PostgresDriver", dependencies: ["StoreSQL", "Concurrency", "CLibPQ"], swiftSettings: strictSwift),
        // A small HTTP/1.1 server over libmicrohttpd: requests, responses, routing, middleware.
        // Knows nothing of the store; nothing above it sees a C type.
        .target(name: "HTTPServer", dependencies: ["Concurrency", "CMicroHTTPD"], swiftSettings: strictSwift),
        // The store's use cases — catalog, sessions and login, baskets, checkout, orders — over
        // StoreDatabase and the payment provider: domain values in and out, domain errors thrown.
        // Imports no HTTP and no wire format.
        .target(
            name: "StoreServices",
            dependencies: [
                "CheckoutKit", "StoreDatabase", "StoreCrypto", "PaymentProvider", "Concurrency", "CatalogFiles",
            ],
            swiftSettings: strictSwift),
        // The store server: its faces (the JSON API, the Fake-Store routes, the storefront, the back
        // office) over the services, on HTTPServer.
        .target(
            name: "StoreServer",
            dependencies: [
                "CheckoutKit", "StoreAPI", "StoreDatabase", "StoreCrypto", "HTTPServer", "PaymentProvider",
                "Concurrency", "HTML", "StoreViews", "StoreServices", "CatalogFiles",
                "AdminViews",
            ],
            swiftSettings: strictSwift),
        // The payment provider port and the sandbox provider with its own durable ledger.
        // Knows the database only through StoreSQL: whoever opens it hands the ledger's database over.
        .target(name: "PaymentProvider", dependencies: ["CheckoutKit", "StoreSQL"], swiftSettings: strictSwift),
        // The `store` command: serve (and its help).
        .executableTarget(
            name: "store",
            dependencies: [
                "StoreServer", "StoreServices", "StoreDatabase", "PaymentProvider", "Concurrency", "StoreShop",
                "StoreClient", "StoreFeatures", "CheckoutKit", "StoreCrypto", "CatalogFiles",
            ],
            swiftSettings: strictSwift
        ),
        // Password hashes (Argon2id), session tokens and digests over libsodium.
        .target(name: "StoreCrypto", dependencies: ["CSodium"], swiftSettings: strictSwift),

        // Migrations, repositories and the seeded store, written once against StoreSQL.
        .target(
            name: "StoreDatabase",
            dependencies: ["CheckoutKit", "StoreSQL", "SQLiteDriver", "PostgresDriver", "StoreCrypto", "Concurrency"],
            resources: [.copy("Resources/images")], swiftSettings: strictSwift),

        // System libraries from Debian's -dev packages (headers and link flags from pkg-config).
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CNCurses", path: "Sources/CNCurses", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(
            name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),

        .testTarget(name: "CheckoutKitTests", dependencies: ["CheckoutKit"], swiftSettings: strictSwift),
        .testTarget(name: "StoreAPITests", dependencies: ["StoreAPI", "CheckoutKit"], swiftSettings: strictSwift),
        .testTarget(
            name: "StoreFeaturesTests", dependencies: ["StoreFeatures", "StoreClient", "StoreAPI", "CheckoutKit"],
            swiftSettings: strictSwift),
        .testTarget(name: "HTMLTests", dependencies: ["HTML"], swiftSettings: strictSwift),
        .testTarget(
            name: "CatalogFilesTests", dependencies: ["CatalogFiles", "CheckoutKit"], swiftSettings: strictSwift),
        .testTarget(
            name: "AdminViewsTests", dependencies: ["AdminViews", "HTML", "CheckoutKit", "StoreViews"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "StoreViewsTests", dependencies: ["StoreViews", "HTML", "CheckoutKit"],
            exclude: ["__Snapshots__"], swiftSettings: strictSwift),
        .testTarget(
            name: "ConcurrencyTests", dependencies: ["Concurrency", "TestWaiting"], swiftSettings: strictSwift),
        .testTarget(name: "StoreSQLTests", dependencies: ["StoreSQL"], swiftSettings: strictSwift),
        .testTarget(
            name: "SQLiteDriverTests",
            dependencies: ["SQLiteDriver", "StoreSQL", "TestWaiting", "Concurrency", "CSQLite"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "PostgresDriverTests", dependencies: ["PostgresDriver", "StoreSQL", "Concurrency", "TestWaiting"],
            swiftSettings: strictSwift),
        // Waiting for a condition instead of a fixed sleep, for every suite: depends on nothing.
        .target(name: "TestWaiting", path: "Tests/TestWaiting", swiftSettings: strictSwift),
        // What the store's suites share: the backends, a fresh PostgreSQL schema per test.
        .target(
            name: "StoreTestSupport", dependencies: ["StoreDatabase", "TestWaiting"], path: "Tests/StoreTestSupport",
            swiftSettings: strictSwift),
        // A real store on a loopback port, for the server's and the client's end-to-end suites.
        .target(
            name: "StoreServerTestSupport",
            dependencies: [
                "StoreServer", "StoreServices", "StoreDatabase", "PaymentProvider", "StoreTestSupport", "StoreAPI",
                "CheckoutKit", "StoreCrypto", "TestWaiting",
            ],
            path: "Tests/StoreServerTestSupport", swiftSettings: strictSwift),
        .testTarget(
            name: "StoreDatabaseTests",
            dependencies: [
                "StoreDatabase", "CheckoutKit", "StoreSQL", "StoreCrypto", "StoreTestSupport", "TestWaiting",
                "Concurrency",
            ],
            swiftSettings: strictSwift),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "Concurrency", "TestWaiting"],
            swiftSettings: strictSwift),
        // The JSON API and the Fake-Store routes through a running store; the server's guard and log.
        .testTarget(
            name: "StoreServerTests",
            dependencies: storeTestDependencies,
            swiftSettings: strictSwift),
        // The web storefront through a running store, as a browser without JavaScript uses it.
        .testTarget(
            name: "StorefrontTests",
            dependencies: storeTestDependencies,
            swiftSettings: strictSwift),
        // Never charging twice: duplicate storms, lost answers, two servers, kill -9 chaos.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: storeTestDependencies,
            swiftSettings: strictSwift),
        // The store executable as a process: its commands, options, start and stop.
        .testTarget(
            name: "StoreCommandTests",
            dependencies: storeTestDependencies,
            swiftSettings: strictSwift),
        // The terminal storefront (store shop), --plain and full screen under tmux.
        .testTarget(
            name: "StoreShopTests",
            dependencies: storeTestDependencies,
            swiftSettings: strictSwift),
        // The services' own units (the provider call's deadline).
        .testTarget(
            name: "StoreServicesTests",
            dependencies: storeTestDependencies,
            swiftSettings: strictSwift),
        .testTarget(name: "StoreCryptoTests", dependencies: ["StoreCrypto"], swiftSettings: strictSwift),
        .testTarget(
            name: "PaymentProviderTests",
            dependencies: [
                "PaymentProvider", "CheckoutKit", "StoreDatabase", "StoreSQL", "StoreTestSupport", "TestWaiting",
            ],
            swiftSettings: strictSwift),
        .testTarget(
            name: "StoreClientTests",
            dependencies: [
                "StoreClient", "StoreClientInProcess", "StoreFeatures", "StoreAPI", "CheckoutKit", "StoreServer",
                "StoreServices", "StoreDatabase", "PaymentProvider", "HTTPServer", "Concurrency", "StoreTestSupport",
                "StoreServerTestSupport",
            ],
            swiftSettings: strictSwift),

        .executableTarget(
            name: "PricingBenchmark", dependencies: ["CheckoutKit"], path: "benchmarks/PricingBenchmark",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "CheckoutBenchmark", dependencies: ["StoreDatabase", "CheckoutKit", "StoreSQL", "StoreCrypto"],
            path: "benchmarks/CheckoutBenchmark", swiftSettings: strictSwift),
        .executableTarget(
            name: "DatabaseBenchmark", dependencies: ["StoreDatabase", "CheckoutKit", "StoreSQL"],
            path: "benchmarks/DatabaseBenchmark", swiftSettings: strictSwift),
        // The back office's list pages at shop scale (10,000 products, 100,000 orders): latency of
        // each service call, and of one through HTTP, on SQLite and PostgreSQL.
        .executableTarget(
            name: "BackOfficeBenchmark",
            dependencies: [
                "StoreDatabase", "StoreServices", "StoreServer", "StoreAPI", "CheckoutKit", "StoreSQL", "StoreCrypto",
                "PostgresDriver",
            ],
            path: "benchmarks/BackOfficeBenchmark", swiftSettings: strictSwift),
        // Refunds through the service, both databases and the sandbox: one at a time, 64 at once,
        // and 20 at once on one order.
        .executableTarget(
            name: "RefundBenchmark",
            dependencies: [
                "StoreDatabase", "StoreServices", "PaymentProvider", "CheckoutKit", "StoreSQL", "PostgresDriver",
            ],
            path: "benchmarks/RefundBenchmark", swiftSettings: strictSwift),
        .executableTarget(
            name: "StatementCacheBenchmark", dependencies: ["PostgresDriver", "StoreSQL"],
            path: "benchmarks/StatementCacheBenchmark", swiftSettings: strictSwift),
    ]
)
