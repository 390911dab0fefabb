import CheckoutKit
import Foundation
import StoreDatabase
import StoreServer

/// What the command line asked for.
enum StoreCommand: Equatable {
    case serve(ServeOptions)
    case migrate(database: String)
    case backup(database: String, to: String)
    case addStaff(AddStaffOptions)
    case importCatalog(CatalogImportOptions)
    case exportCatalog(CatalogExportOptions)
    case shop(ShopOptions)
    case help(topic: String?)

    struct ShopOptions: Equatable {
        var server = "http://127.0.0.1:8080"
        /// One command per line instead of the full screen (also when standard input is not a terminal).
        var plain = false
    }

    struct ServeOptions: Equatable {
        var host = "127.0.0.1"
        var port = 8080
        var database: String
        /// A real shop: a new database gets the schema only, no products, customers or staff.
        var demoData = true
        /// Open connections allowed from one client address (behind a proxy, every client has its address).
        var connectionsPerAddress = StoreServer.Options.defaultConnectionsPerAddress
        /// Seconds of service between SIGTERM (readiness 503 at once) and closing the listener.
        var drainSeconds = 5
        /// The proxies whose X-Forwarded-For / X-Forwarded-Proto are believed.
        var trustedProxies = TrustedProxies.none
        /// Who besides loopback addresses may read /metrics: `Authorization: Bearer` of this.
        var metricsToken: String?
    }

    struct AddStaffOptions: Equatable {
        var database: String
        var email = ""
        var role = ""
        /// The password is the first line of standard input (for scripts), not typed at a prompt.
        var passwordFromStandardInput = false
    }

    /// A command line that could not be understood, with the reason.
    struct UsageError: Error, Equatable {
        let message: String
    }

    /// Each option of `store serve` that an environment variable may give instead: the variable, the
    /// option, and whether the option is a flag (set by `1`, `true` or `yes`). An option on the
    /// command line wins over its variable.
    static let serveEnvironment: [(variable: String, option: String, isFlag: Bool)] = [
        ("STORE_HOST", "--host", false),
        ("STORE_PORT", "--port", false),
        ("STORE_DATABASE_URL", "--database", false),
        ("STORE_CONNECTIONS_PER_ADDRESS", "--connections-per-address", false),
        ("STORE_DRAIN_SECONDS", "--drain-seconds", false),
        ("STORE_TRUST_PROXY", "--trust-proxy", false),
        ("STORE_METRICS_TOKEN", "--metrics-token", false),
        ("STORE_NO_DEMO_DATA", "--no-demo-data", true),
    ]

    /// The options `environment` gives `store serve`, as command-line arguments.
    static func serveArguments(from environment: [String: String]) throws(UsageError) -> [String] {
        var arguments: [String] = []
        for (variable, option, isFlag) in serveEnvironment {
            guard let value = environment[variable], !value.isEmpty, variable != "STORE_DATABASE_URL" else { continue }
            if isFlag {
                switch value.lowercased() {
                case "1", "true", "yes": arguments.append(option)
                case "0", "false", "no": break
                default: throw UsageError(message: "\(variable) must be 1, true or yes (or 0, false or no)")
                }
            } else {
                do {
                    _ = try parse(["serve", option, value], environment: [:], servingFromEnvironment: false)
                } catch {
                    throw UsageError(message: "\(variable): \(error.message)")
                }
                arguments += [option, value]
            }
        }
        return arguments
    }

    /// Reads `arguments` (without the program name); `environment` supplies `STORE_DATABASE_URL`
    /// and, for `store serve`, the variables of ``serveEnvironment``.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> StoreCommand {
        try parse(arguments, environment: environment, servingFromEnvironment: true)
    }

    private static func parse(
        _ arguments: [String], environment: [String: String], servingFromEnvironment: Bool
    ) throws(UsageError) -> StoreCommand {
        let defaultDatabase =
            environment["STORE_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "sqlite:.store/store.sqlite"
        guard let command = arguments.first else { return .help(topic: nil) }
        var rest = arguments.dropFirst()
        if command == "serve", servingFromEnvironment {
            // The environment's options first, so that the command line's own win.
            rest = ArraySlice(try serveArguments(from: environment)) + rest
        }
        func value(for option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(message: "\(option) needs a value")
            }
            return value
        }
        switch command {
        case "-h", "--help", "help":
            return .help(topic: rest.first)
        case "serve":
            var options = ServeOptions(database: defaultDatabase)
            while let option = rest.popFirst() {
                switch option {
                case "-h", "--help": return .help(topic: "serve")
                case "--host": options.host = try value(for: option)
                case "--port":
                    let text = try value(for: option)
                    guard let port = Int(text), (0...65_535).contains(port) else {
                        throw UsageError(message: "--port must be a number from 0 to 65535 (0 picks a free port)")
                    }
                    options.port = port
                case "--database": options.database = try value(for: option)
                case "--no-demo-data": options.demoData = false
                case "--connections-per-address":
                    let text = try value(for: option)
                    guard let limit = Int(text), (1...100_000).contains(limit) else {
                        throw UsageError(message: "--connections-per-address must be a number from 1 to 100000")
                    }
                    options.connectionsPerAddress = limit
                case "--drain-seconds":
                    let text = try value(for: option)
                    guard let seconds = Int(text), (0...300).contains(seconds) else {
                        throw UsageError(message: "--drain-seconds must be a number from 0 to 300")
                    }
                    options.drainSeconds = seconds
                case "--trust-proxy":
                    guard let trusted = TrustedProxies(parsing: try value(for: option)) else {
                        throw UsageError(message: "--trust-proxy takes addresses or CIDR ranges: 10.0.0.0/8,127.0.0.1")
                    }
                    options.trustedProxies = trusted
                case "--metrics-token":
                    let token = try value(for: option)
                    guard token.count >= 16,
                        token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 })
                    else {
                        throw UsageError(message: "--metrics-token must be at least 16 printable ASCII characters")
                    }
                    options.metricsToken = token
                default: throw UsageError(message: "unknown option \(option) for serve")
                }
            }
            do { _ = try DatabaseURL(options.database) } catch { throw UsageError(message: error.description) }
            return .serve(options)
        case "migrate":
            var database = defaultDatabase
            while let option = rest.popFirst() {
                switch option {
                case "-h", "--help": return .help(topic: "migrate")
                case "--database": database = try value(for: option)
                default: throw UsageError(message: "unknown option \(option) for migrate")
                }
            }
            do { _ = try DatabaseURL(database) } catch { throw UsageError(message: error.description) }
            return .migrate(database: database)
        case "backup":
            var database = defaultDatabase
            var destination: String?
            while let option = rest.popFirst() {
                switch option {
                case "-h", "--help": return .help(topic: "backup")
                case "--database": database = try value(for: option)
                case "--to": destination = try value(for: option)
                default: throw UsageError(message: "unknown option \(option) for backup")
                }
            }
            guard let destination, !destination.isEmpty else { throw UsageError(message: "backup needs --to FILE") }
            do { _ = try DatabaseURL(database) } catch { throw UsageError(message: error.description) }
            return .backup(database: database, to: destination)
        case "staff":
            guard rest.popFirst() == "add" else { throw UsageError(message: "store staff: the command is add") }
            var options = AddStaffOptions(database: defaultDatabase)
            while let option = rest.popFirst() {
                switch option {
                case "-h", "--help": return .help(topic: "staff")
                case "--database": options.database = try value(for: option)
                case "--email": options.email = try value(for: option)
                case "--role": options.role = try value(for: option)
                case "--password-stdin": options.passwordFromStandardInput = true
                default: throw UsageError(message: "unknown option \(option) for staff add")
                }
            }
            guard !options.email.isEmpty else { throw UsageError(message: "staff add needs --email") }
            guard StaffRole(rawValue: options.role) != nil else {
                throw UsageError(message: "staff add needs --role owner, catalog or orders")
            }
            do { _ = try DatabaseURL(options.database) } catch { throw UsageError(message: error.description) }
            return .addStaff(options)
        case "catalog":
            return try parseCatalog(&rest, defaultDatabase: defaultDatabase)
        case "shop":
            var options = ShopOptions()
            while let option = rest.popFirst() {
                switch option {
                case "-h", "--help": return .help(topic: "shop")
                case "--server": options.server = try value(for: option)
                case "--plain": options.plain = true
                default: throw UsageError(message: "unknown option \(option) for shop")
                }
            }
            guard let url = URL(string: options.server), url.scheme == "http" || url.scheme == "https", url.host != nil
            else { throw UsageError(message: "--server must be an http:// or https:// URL") }
            return .shop(options)
        default:
            throw UsageError(message: "unknown command \(command)")
        }
    }

    /// One line per variable of ``serveEnvironment``: `  STORE_PORT    --port`.
    static var serveEnvironmentHelp: String {
        serveEnvironment.map { entry in
            "  " + entry.variable.padding(toLength: 32, withPad: " ", startingAt: 0) + entry.option
                + (entry.isFlag ? " (1, true or yes)" : "")
        }.joined(separator: "\n")
    }

    static let usage = """
        store — the OnlineStore server and its terminal storefront

        USAGE
          store serve [--host HOST] [--port PORT] [--database URL] [--connections-per-address N] [--no-demo-data]
                      [--drain-seconds N] [--trust-proxy CIDR[,CIDR…]] [--metrics-token TOKEN]
          store migrate [--database URL]
          store backup --to FILE [--database URL]
          store staff add --email EMAIL --role owner|catalog|orders [--password-stdin] [--database URL]
          store catalog import FILE [--dry-run] [--database URL]
          store catalog export [--to FILE] [--database URL]
          store shop [--server URL] [--plain]
          store help [COMMAND]

        COMMANDS
          serve     Opens the database (creating, migrating and seeding it on first run) and serves the
                    store: the JSON API under /api, the Fake-Store-compatible routes and the product images.
                    Once it accepts connections, its first line on standard output is
                      listening on http://HOST:PORT
                    One JSON line per request goes to standard error (method, route, status, duration;
                    never a token, a password, a body or card data). SIGINT or SIGTERM stops accepting
                    connections, finishes the requests in flight, closes the database and exits 0.
          migrate   Applies pending schema migrations and seeds the store, then exits.
          backup    Copies a SQLite store to a new FILE while it serves and writes (SQLite's online
                    backup: one consistent snapshot), checks the copy (integrity_check) and prints the
                    orders, customers and products it holds. A server started on the copy serves it.
                    For PostgreSQL: pg_dump -Fc and pg_restore (see README).
          staff add Adds a member of staff to the back office (/admin) with a role: owner (everything,
                    and staff), catalog (products, prices, stock, promotions) or orders (orders,
                    fulfilment, refunds, customers). The password is asked for on the terminal, without
                    echo, or read from the first line of standard input with --password-stdin; at least
                    12 characters. Written to the audit log as done by the command line.
          catalog import
                    Reads a catalog CSV (sku,title,description,category,price,stock,active; UTF-8, a
                    header row, prices like 12.50) and prints what it would do: the new, changed and
                    unchanged products, and every problem with its line. A file with a problem imports
                    nothing and exits 1. Otherwise, unless --dry-run, imports it all in one transaction:
                    a stock that differs becomes a "counted" stock adjustment. Written to the audit log
                    as done by the command line.
          catalog export
                    Writes every product, archived too, as a catalog CSV to standard output or --to FILE;
                    imported again, it changes nothing.
          shop      The terminal storefront, a client of a running store (--server, default
                    http://127.0.0.1:8080): full screen on a terminal (? shows the keys), or with
                    --plain (or when standard input is not a terminal) one command per line: type help.
          help      Shows this text.

        OPTIONS
          --host HOST       Address to listen on (default 127.0.0.1).
          --port PORT       Port to listen on (default 8080; 0 picks a free port).
          --connections-per-address N
                            (serve) Open connections allowed from one client address (default \(StoreServer.Options.defaultConnectionsPerAddress);
                            raise it behind a reverse proxy, where every client has the proxy's address).
          --drain-seconds N (serve) On SIGTERM, /readyz answers 503 at once and new connections are still
                            served for N seconds (default 5) so a load balancer notices; then the listener
                            closes, the requests in flight finish (30 s at most) and the process exits 0.
          --trust-proxy CIDR[,CIDR…]
                            (serve) Believe X-Forwarded-For (the client's address, for limits) and
                            X-Forwarded-Proto (Secure cookies over https) only from these proxies;
                            from anyone else they are ignored.
          --metrics-token TOKEN
                            (serve) /metrics answers loopback addresses, and anyone sending
                            Authorization: Bearer TOKEN (16 or more printable characters); 404 to others.
          --no-demo-data    (serve) A real shop: a new database gets the schema only — no products,
                            customers or staff (add the first owner with store staff add).
          --dry-run         (catalog import) Print what the file would do; import nothing.
          --to FILE         (catalog export) Write the file there instead of to standard output.
          --server URL      (shop) The store to shop at.
          --plain           (shop) One command per line on standard input, one answer on standard output.
          --database URL    sqlite:PATH (default sqlite:.store/store.sqlite; the directory is created)
                            or postgres://user[:password]@host:port/dbname. When absent, the
                            STORE_DATABASE_URL environment variable is used if set.

        ENVIRONMENT
          Every option of serve may be given as a variable instead; the command line wins.
        \(serveEnvironmentHelp)

        EXAMPLES
          store serve
          store serve --port 0 --database sqlite:/tmp/shop.sqlite
          store serve --no-demo-data --database sqlite:shop.sqlite
          store staff add --email me@myshop.example --role owner --database sqlite:shop.sqlite
          store catalog export --to catalog.csv && store catalog import catalog.csv --dry-run
          store shop --server http://127.0.0.1:8080
          STORE_DATABASE_URL=postgres://store@127.0.0.1:5432/store store serve --host 0.0.0.0
        """
}
