import CheckoutKit
import HTML

extension StorePages {
    /// The customer's profile at `/profile`: name, email and membership tier (Free or Pro).
    public static func profile(_ page: ProfilePage, context: PageContext) -> HTMLDocument {
        let membership: Node =
            switch page.tier {
            case .pro:
                .fragment(
                    .span([.class("badge badge-pro")], "Pro"), .text(" Free shipping on every order."))
            case .free:
                .fragment(
                    .span([.class("badge")], "Free"), .text(" Pro members get free shipping on every order."))
            }
        return PageLayout.document(
            title: "Profile", context: context, section: .profile,
            .h1("Your profile"),
            .dl(
                [.class("facts")],
                .dt("Name"),
                .dd("\(page.firstName) \(page.lastName)"),
                .dt("Email"),
                .dd(page.email),
                .dt("Membership"),
                .dd([], membership)))
    }
}
