import HTTPServer
import StoreAPI
import StoreServices

/// `GET /api/profile`: the signed-in customer's own profile, with the tier decided locally.
struct ProfileRoutes: Sendable {
    let accounts: AccountService
    let clock: StoreClock

    func register(on routes: inout RouteTable) {
        routes.shopper(Endpoints.profile) { _, caller in
            guard let customer = try await accounts.customer(of: caller.shopper) else {
                throw HTTPError.loginRequired
            }
            return try respond(
                ProfileBody(
                    firstName: customer.firstName, lastName: customer.lastName, email: customer.email,
                    tier: customer.subscription.tier(at: clock.now()),
                    subscription: SubscriptionBody(customer.subscription)))
        }
    }
}
