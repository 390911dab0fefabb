import HTTPServer
import StoreAPI

/// `GET /api/profile`: the signed-in customer's own profile, with the tier decided locally.
struct ProfileRoutes: Sendable {
    let sessions: Sessions
    let accounts: AccountService
    let clock: StoreClock

    func register(on router: inout Router) {
        router.on(
            Endpoints.profile,
            sessions.authenticated { _, _, shopper in
                guard let customer = try await accounts.customer(of: shopper) else { throw HTTPError.loginRequired }
                return try respond(
                    ProfileBody(
                        firstName: customer.firstName, lastName: customer.lastName, email: customer.email,
                        tier: customer.subscription.tier(at: clock.now()),
                        subscription: SubscriptionBody(customer.subscription)))
            })
    }
}
