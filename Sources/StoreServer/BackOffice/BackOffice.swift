import AdminViews
import CheckoutKit
import HTML
import HTTPServer
import StoreServices

/// The back office's pages under `/admin` (docs/BEHAVIOUR.md §13): rendered by `AdminViews` from
/// what the services say, grouped by section (``BackOfficeSignIn``, ``BackOfficeProducts``…). Every
/// page but the sign-in form and the stylesheet passes ``BackOfficeGate`` with the permission its
/// section needs; every form is a POST answered by a 303 redirect (POST-redirect-GET) whose
/// result the next page announces, or — when the form has problems — by its page again, as typed,
/// with the problems beside their fields.
struct BackOffice: Sendable {
    let services: BackOfficeServices

    func register(on routes: inout RouteTable) {
        routes.openBackOfficePage(
            .get, AdminPaths.stylesheet, .immediate { _, _ in Response(prepared: Self.stylesheet) })
        BackOfficeSignIn(staff: services.staff, gate: routes.backOfficeGate).register(on: &routes)
        BackOfficeDashboard(dashboard: services.dashboard).register(on: &routes)
        BackOfficeProducts(catalog: services.catalog).register(on: &routes)
        BackOfficeCatalogFiles(imports: services.imports, images: services.images, catalog: services.catalog)
            .register(on: &routes)
        BackOfficeOrders(orders: services.orders).register(on: &routes)
        BackOfficeRefunds(refunds: services.refunds, orders: services.orders).register(on: &routes)
        BackOfficePromotions(promotions: services.promotions).register(on: &routes)
        BackOfficeCustomers(customers: services.customers).register(on: &routes)
        BackOfficeStaff(staff: services.staff).register(on: &routes)
        BackOfficeAudit(audit: services.audit).register(on: &routes)
    }

    static let stylesheet = PreparedResponse(
        {
            var response = Response.bytes(Array(AdminStylesheet.css.utf8), contentType: "text/css; charset=utf-8")
            response.headers["Cache-Control"] = "public, max-age=3600"
            return response
        }())

    static func redirect(_ location: String) -> Response {
        Storefront.redirect(location)
    }
}

/// The services the back office's two faces — its pages and its JSON API — share.
struct BackOfficeServices: Sendable {
    let catalog: CatalogManagement
    let imports: CatalogImport
    let images: ProductImageService
    let orders: OrderManagement
    let promotions: PromotionManagement
    let customers: CustomerDirectory
    let dashboard: Dashboard
    let audit: AuditLog
    let staff: StaffService
    let refunds: RefundService
}
