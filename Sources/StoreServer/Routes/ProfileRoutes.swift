import HTTPServer
import StoreAPI
import StoreDatabase

/// `GET /api/profile`: the signed-in customer's own profile, with the tier decided locally.
struct ProfileRoutes: Sendable {
    let sessions: Sessions
    let database: StoreDatabase
    let clock: StoreClock

    func register(on router: inout Router) {
        router.get(
            "/api/profile",
            sessions.authenticated { _, _, shopper in
                guard let customerID = shopper.customerID,
                    let customer = try await database.customers.customer(id: customerID)
                else { throw APIError.loginRequired }
                return try respond(
                    ProfileBody(
                        firstName: customer.firstName, lastName: customer.lastName, email: customer.email,
                        tier: customer.subscription.tier(at: clock.now()),
                        subscription: SubscriptionBody(customer.subscription)))
            })
    }
}
