import CheckoutKit
import Concurrency
import Foundation
import HTTPServer
import PaymentProvider
import StoreCrypto
import StoreDatabase
import StoreServices

/// The store as a running HTTP server: the JSON API, the Fake-Store-compatible routes and the
/// product images, over one database.
public final class StoreServer: Sendable {
    public struct Options: Sendable {
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        public var configuration: StoreConfiguration
        public var clock: StoreClock
        public var hasher: PasswordHasher
        public var log: ServerLog
        /// How often attempts whose request died are resolved with the provider.
        public var reconciliationInterval: Duration
        /// How often expired sessions, old failed attempts and abandoned shoppers are removed.
        public var housekeepingInterval: Duration
        /// How often the log's gathered lines are written out (a crash loses at most this much).
        public var logFlushInterval: Duration
        /// The most connections open at once from one client address.
        public var connectionsPerAddress: Int
        /// What ``connectionsPerAddress`` is unless set: the HTTP server's default.
        public static let defaultConnectionsPerAddress = HTTPServer.Configuration.defaultConnectionsPerAddress
        /// How long a client may take to send a request's header fields.
        public var headerDeadline: Duration
        /// The proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed; nobody's unless set.
        public var trustedProxies: TrustedProxies
        /// Besides loopback addresses, who may read `/metrics`: `Authorization: Bearer` of this.
        public var metricsToken: String?

        public init(
            host: String = "127.0.0.1", port: Int = 8080, configuration: StoreConfiguration = StoreConfiguration(),
            clock: StoreClock = .system, hasher: PasswordHasher = .interactive, log: ServerLog = .standardError,
            reconciliationInterval: Duration = .seconds(5), housekeepingInterval: Duration = .seconds(600),
            logFlushInterval: Duration = .milliseconds(100),
            connectionsPerAddress: Int = Options.defaultConnectionsPerAddress,
            headerDeadline: Duration = .seconds(15), trustedProxies: TrustedProxies = .none,
            metricsToken: String? = nil
        ) {
            self.metricsToken = metricsToken
            self.trustedProxies = trustedProxies
            self.connectionsPerAddress = connectionsPerAddress
            self.headerDeadline = headerDeadline
            self.reconciliationInterval = reconciliationInterval
            self.housekeepingInterval = housekeepingInterval
            self.logFlushInterval = logFlushInterval
            self.host = host
            self.port = port
            self.configuration = configuration
            self.clock = clock
            self.hasher = hasher
            self.log = log
        }
    }

    /// Headers on every response, errors included.
    static let securityHeaders: HTTPHeaders = [
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy":
            "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'none'; object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
        "Cross-Origin-Opener-Policy": "same-origin",
    ]

    public let database: StoreDatabase
    private let server: HTTPServer
    /// The routes, also answered in process by ``respond(to:context:)``.
    private let router: Router
    private let catalog: Catalog
    private let refresher = Locked<[Task<Void, Never>]>([])

    /// Builds the server over an open, migrated `database`, charging through `provider`. Call
    /// ``start()`` to accept connections. (``RunningStore`` opens the database and the provider and
    /// starts the server: the one way `store serve` and the tests start the store.)
    public init(database: StoreDatabase, provider unmeasured: any PaymentProvider, options: Options) async throws {
        self.database = database
        let metrics = StoreMetrics()
        self.metrics = metrics
        let provider = MeasuredProvider(provider: unmeasured, metrics: metrics)
        let configuration = options.configuration
        let catalog = Catalog(database: database)
        let documents = try CatalogCache(catalog: catalog)
        try await catalog.refresh()
        self.catalog = catalog
        let sessions = Sessions(
            database: database, clock: options.clock, lifetime: configuration.sessionLifetime,
            newShoppers: NewShopperLimit(
                perMinute: configuration.newShoppersPerAddressPerMinute, burst: configuration.newShoppersPerAddressBurst
            ))
        let baskets = BasketService(database: database, configuration: configuration, clock: options.clock)
        let decoyHash = try await options.hasher.hashOffThePool("decoy password")
        let login = Login(
            database: database, hasher: options.hasher,
            throttle: LoginThrottle(limits: configuration.loginLimits),
            clock: options.clock, decoyHash: decoyHash)
        // Staff sign in apart from customers, throttled by the same rules in a throttle of their own.
        let staff = StaffService(
            database: database, hasher: options.hasher, throttle: LoginThrottle(limits: configuration.loginLimits),
            clock: options.clock, decoyHash: decoyHash)
        let portBox = Locked(options.port)

        let log = options.log
        var routes = RouteTable(
            sessions: sessions, staff: staff,
            backOfficeGate: BackOfficeGate(staff: staff, shopName: "OnlineStore", locale: configuration.locale))
        routes.use(ForwardedHeaders(trusted: options.trustedProxies))
        routes.use(CardNumberGuard())
        CatalogRoutes(cache: documents, images: try ProductImages.load()).register(on: &routes)
        SessionRoutes(sessions: sessions, login: login).register(on: &routes)
        BasketRoutes(baskets: baskets).register(on: &routes)
        let accounts = AccountService(database: database)
        ProfileRoutes(accounts: accounts, clock: options.clock).register(on: &routes)
        let checkout = CheckoutService(
            database: database, baskets: baskets, provider: provider, answers: APICheckoutAnswers(),
            configuration: configuration, clock: options.clock, stockChanged: { catalog.stockChanged($0) },
            outcome: { metrics.checkout($0) })
        self.checkout = checkout
        let orders = OrdersService(database: database)
        CheckoutRoutes(checkout: checkout, orders: orders).register(on: &routes)
        Storefront(
            catalog: catalog, sessions: sessions, baskets: baskets, accounts: accounts, configuration: configuration
        ).register(on: &routes, checkout: checkout, orders: orders, login: login, clock: options.clock)
        FakeStoreRoutes(
            cache: documents, sessions: sessions, baskets: baskets, login: login, accounts: accounts,
            clock: options.clock, fallbackHost: { "\(options.host):\(portBox.current)" }
        ).register(on: &routes)
        AdminRoutes(staff: staff).register(on: &routes)
        let draining = Locked(false)
        self.draining = draining
        let serverBox = Locked<HTTPServer?>(nil)
        OperationsRoutes(
            database: database, draining: draining, metrics: metrics, metricsToken: options.metricsToken,
            serverGauges: {
                guard let server = serverBox.withLock({ $0 }) else { return (0, 0) }
                return (server.openConnections, server.requestsInFlight)
            }
        ).register(on: &routes)
        let currency = configuration.shipping.currency
        let catalogManagement = CatalogManagement(
            database: database, catalog: catalog, currency: currency, clock: options.clock)
        let backOffice = BackOfficeServices(
            catalog: catalogManagement,
            imports: CatalogImport(database: database, catalog: catalog, currency: currency, clock: options.clock),
            images: ProductImageService(database: database, catalog: catalog, clock: options.clock),
            orders: OrderManagement(database: database, clock: options.clock),
            promotions: PromotionManagement(database: database, currency: currency, clock: options.clock),
            customers: CustomerDirectory(database: database, currency: currency, clock: options.clock),
            dashboard: Dashboard(database: database, currency: currency, clock: options.clock),
            audit: AuditLog(database: database), staff: staff,
            refunds: RefundService(
                database: database, provider: provider, clock: options.clock,
                stockChanged: { catalog.refreshSoon() }, outcome: { metrics.refund($0) }))
        self.refunds = backOffice.refunds
        AdminCatalogRoutes(catalog: catalogManagement).register(on: &routes)
        AdminBackOfficeRoutes(
            promotions: backOffice.promotions, customers: backOffice.customers, dashboard: backOffice.dashboard,
            audit: backOffice.audit, staff: staff
        ).register(on: &routes)
        BackOffice(services: backOffice).register(on: &routes)
        AdminOrderRoutes(orders: backOffice.orders).register(on: &routes)
        AdminRefundRoutes(refunds: backOffice.refunds).register(on: &routes)
        AdminCatalogFileRoutes(imports: backOffice.imports, images: backOffice.images).register(on: &routes)
        var router = routes.router
        let responder = StoreErrorResponder(routes: routes)
        router.errorResponder = { error, request, context in responder.respond(to: error, request, context) }
        router.errorReporter = { error, request, context in
            log.recordUnexpectedError(
                error, method: request.method.rawValue, route: context.route ?? request.path,
                requestID: context.requestID)
        }
        self.routes = routes.entries
        let patterns = Set(routes.entries.map(\.pattern))

        var httpConfiguration = HTTPServer.Configuration()
        httpConfiguration.host = options.host
        httpConfiguration.port = options.port
        httpConfiguration.defaultHeaders = Self.securityHeaders
        // libmicrohttpd clears each connection's memory pool for every request: 16 KiB (ample for
        // the store's requests: a 431 past that) costs half the default's clearing.
        httpConfiguration.connectionMemoryLimit = 16 << 10
        httpConfiguration.connectionsPerAddress = options.connectionsPerAddress
        httpConfiguration.headerDeadline = options.headerDeadline
        httpConfiguration.largeBodies += AdminCatalogFileRoutes.largeBodies + BackOfficeCatalogFiles.largeBodies
        httpConfiguration.accessLog = { entry in
            log.record(entry)
            metrics.record(entry, routes: patterns)
        }
        httpConfiguration.libraryMessages = { message in log.recordLibraryMessage(message) }
        server = HTTPServer(configuration: httpConfiguration, router: router)
        serverBox.withLock { [server] in $0 = server }
        self.router = router
        self.portBox = portBox
        self.refreshInterval = configuration.catalogRefreshInterval
        self.intervals = (options.reconciliationInterval, options.housekeepingInterval, options.logFlushInterval)
        self.retention = (configuration.failedAttemptRetention, configuration.anonymousShopperRetention)
        self.clock = options.clock
        self.log = options.log
    }

    /// Every route the server answers, with who may call it: what tests walk.
    let routes: [RouteEntry]
    private let portBox: Locked<Int>
    private let refreshInterval: Duration
    private let intervals: (reconciliation: Duration, housekeeping: Duration, logFlush: Duration)
    private let retention: (failedAttempts: TimeInterval, anonymousShoppers: TimeInterval)
    private let checkout: CheckoutService
    private let refunds: RefundService
    private let metrics: StoreMetrics
    /// Set when the server begins draining: readiness answers 503 from then on.
    private let draining: Locked<Bool>
    private let clock: StoreClock
    private let log: ServerLog

    /// Resolves the payments a previous run left unfinished, then starts accepting connections.
    ///
    /// On SQLite no other server can be working on them, so every pending attempt is resolved now
    /// (asking the provider again with the same key); on PostgreSQL, attempts held by another
    /// server are left to it while it is present and its lease runs, and a background pass takes
    /// over the rest.
    public func start() async throws {
        if database.sql.dialect == .sqlite {
            try await database.payments.releaseAllLeases(now: clock.now())
            try await database.refunds.releaseAllLeases(now: clock.now())
        }
        await checkout.reconcile()
        await refunds.reconcile()
        try server.start()
        portBox.withLock { $0 = server.port }
        let refresh = catalog.refreshPeriodically(every: refreshInterval)
        let (checkout, refunds, intervals, retention) = (self.checkout, self.refunds, self.intervals, self.retention)
        let reconcile = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: intervals.reconciliation)
                await checkout.reconcile()
                await refunds.reconcile()
                metrics.reconciliation()
            }
        }
        let database = self.database
        let clock = self.clock
        let housekeeping = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: intervals.housekeeping)
                // Expired sessions go; failed payment attempts and anonymous shoppers nobody can
                // reach any more go after their retention (StoreConfiguration).
                let now = clock.now()
                _ = try? await database.housekeeping.run(
                    now: now, failedAttemptsBefore: now.addingTimeInterval(-retention.failedAttempts),
                    shoppersBefore: now.addingTimeInterval(-retention.anonymousShoppers))
                _ = try? await database.catalogImport.removeUploads(
                    before: now.addingTimeInterval(-CatalogImport.uploadLifetime))
            }
        }
        let log = self.log
        let logFlusher = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: intervals.logFlush)
                log.flush()
            }
        }
        refresher.withLock { $0 = [refresh, reconcile, housekeeping, logFlusher] }
    }

    /// Runs one reconciliation pass now (the server also runs them in the background); returns how
    /// many payment attempts reached a definite outcome.
    @discardableResult
    public func reconcilePayments() async -> Int {
        await checkout.reconcile() + refunds.reconcile()
    }

    /// Answers `request` in process, through the same routes, middleware and error answers as a
    /// request over the network, with the headers the server adds to every response — for clients
    /// (and tests) that want the real server without a socket. No access-log line is written.
    public func respond(to request: Request, context: RequestContext = RequestContext()) async -> Response {
        var response = await router.respond(to: request, context: context)
        for field in Self.securityHeaders where !response.headers.contains(field.name) {
            response.headers[field.name] = field.value
        }
        return response
    }

    /// Stops declaring the server ready (`/readyz` answers 503 `draining`) while it keeps serving,
    /// so that a load balancer sends new requests elsewhere before ``shutdown()``.
    public func beginDraining() {
        draining.withLock { $0 = true }
    }

    /// The port the server listens on (the real one when started with port 0).
    public var port: Int { server.port }

    /// Stops accepting connections, finishes the requests in flight and the background pass under
    /// way, then stops. The database stays open; the caller closes it.
    public func shutdown() async {
        let tasks = refresher.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in tasks { task.cancel() }
        await server.shutdown()
        for task in tasks { await task.value }
        log.flush()
    }
}
