import AdminViews
import CheckoutKit
import HTTPServer
import StoreDatabase
import StoreServices

/// The back office's products (docs/BEHAVIOUR.md §13.5–§13.6): the list with search, **New
/// product**, a product's form saved against the version it was made from (a save that comes second
/// is refused with the other's change shown), and **Adjust stock** into the ledger, once per form.
struct BackOfficeProducts: Sendable {
    let catalog: CatalogManagement
    /// Products per page of the list.
    static let pageSize = 50
    /// Ledger lines shown on a product's page.
    static let ledgerLength = 50

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.products, .manageCatalog) { page in try await list(page) }
        routes.staffPage(.get, AdminPaths.newProduct, .manageCatalog) { page in
            page.respond(
                AdminPages.newProduct(
                    AdminNewProductPage(currency: catalog.currency, categories: try await catalog.categories()),
                    context: page.context))
        }
        routes.staffPage(.post, AdminPaths.newProduct, .manageCatalog) { page in try await create(page) }
        routes.staffPage(.get, AdminPaths.productPattern, .manageCatalog) { page in
            let id = try page.parameter(ProductID.self)
            guard let product = try await catalog.product(id) else { return page.error(.notFound) }
            return page.respond(AdminPages.product(try await productPage(product), context: page.context))
        }
        routes.staffPage(.post, AdminPaths.productPattern, .manageCatalog) { page in try await save(page) }
        routes.staffPage(.post, AdminPaths.productStockPattern, .adjustStock) { page in try await adjust(page) }
    }

    private func list(_ page: StaffPage) async throws -> Response {
        let search = page.query(AdminFormFields.search) ?? ""
        let number = Self.pageNumber(page.query(AdminFormFields.page))
        let found = try await catalog.products(
            search: search, offset: (number - 1) * Self.pageSize, limit: Self.pageSize)
        let rows = found.products.map { product in
            AdminProductListPage.Row(
                id: product.id, title: product.details.title, sku: product.details.sku,
                category: product.details.category, price: product.details.price, stock: product.stock,
                active: product.details.active)
        }
        return page.respond(
            AdminPages.products(
                AdminProductListPage(
                    search: search, products: rows,
                    paging: AdminPaging(page: number, pageSize: Self.pageSize, totalCount: found.total)),
                context: page.context))
    }

    /// **Save** on the new-product form: the product's page, or the form again with its problems.
    private func create(_ page: StaffPage) async throws -> Response {
        let form = Self.form(page)
        do {
            let details = try Self.details(form, currency: catalog.currency)
            let created = try await catalog.create(details, by: page.staff)
            return page.redirect(AdminPaths.product(created.id), .productCreated)
        } catch let error as ProductDetailsError {
            return try await newProductAgain(page, form.with(problems: error.problems))
        } catch ProductChangeError.skuTaken(_, let title) {
            var form = form
            form.errors[.sku] = "That SKU is used by “\(title)”."
            return try await newProductAgain(page, form)
        }
    }

    private func newProductAgain(_ page: StaffPage, _ form: AdminProductForm) async throws -> Response {
        page.respond(
            AdminPages.newProduct(
                AdminNewProductPage(form: form, currency: catalog.currency, categories: try await catalog.categories()),
                context: page.context),
            status: .unprocessableContent)
    }

    /// **Save** on a product's form, against the version the form was made from.
    private func save(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(ProductID.self)
        guard let current = try await catalog.product(id) else { return page.error(.notFound) }
        guard let version = Int64(page.text(AdminFormFields.version)) else {
            return page.error(.unprocessable(message: "The form was incomplete. Open the product again."))
        }
        let form = Self.form(page)
        do {
            let details = try Self.details(form, currency: catalog.currency)
            _ = try await catalog.update(id, from: version, to: details, by: page.staff)
            return page.redirect(AdminPaths.product(id), .productSaved)
        } catch let error as ProductDetailsError {
            return page.respond(
                AdminPages.product(
                    try await productPage(current, form: form.with(problems: error.problems), version: version),
                    context: page.context),
                status: .unprocessableContent)
        } catch ProductChangeError.skuTaken(_, let title) {
            var form = form
            form.errors[.sku] = "That SKU is used by “\(title)”."
            return page.respond(
                AdminPages.product(try await productPage(current, form: form, version: version), context: page.context),
                status: .unprocessableContent)
        } catch ProductChangeError.editConflict(let now) {
            // Someone saved first: their version is shown beside what was typed, and the next Save
            // is made against it, deliberately.
            let conflict = AdminProductPage.EditConflict(
                changedBy: now.updatedBy ?? "someone", changedAt: now.updatedAt ?? .now, current: now.details)
            return page.respond(
                AdminPages.product(try await productPage(now, form: form, conflict: conflict), context: page.context),
                status: .conflict)
        }
    }

    /// **Adjust stock**: a ledger line, made once however often the form is sent.
    private func adjust(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(ProductID.self)
        guard let product = try await catalog.product(id) else { return page.error(.notFound) }
        var form = AdminProductPage.StockForm(
            change: page.text(AdminFormFields.change),
            reason: StockReason(rawValue: page.text(AdminFormFields.reason)), note: page.text(AdminFormFields.note),
            idempotencyKey: page.value(AdminFormFields.idempotencyKey))
        let change = StockAdjustment.change(parsing: form.change)
        if change == nil || change == 0 { form.errors[.change] = StockAdjustmentError.invalidChange.message }
        let reason = form.reason.flatMap { StockReason.staffReasons.contains($0) ? $0 : nil }
        if reason == nil { form.errors[.reason] = "Choose a reason." }
        let note = form.note.trimmingCharacters(in: .whitespacesAndNewlines)
        var adjustment: StockAdjustment?
        if let change, let reason, form.errors.isEmpty {
            do {
                adjustment = try StockAdjustment(change: change, reason: reason, note: note.isEmpty ? nil : note)
            } catch {
                form.errors[error == .cardNumberInNote || error == .invalidNote ? .note : .change] = error.message
            }
        }
        guard let adjustment else { return try await stockAgain(page, product, form, status: .unprocessableContent) }
        let key = page.value(AdminFormFields.idempotencyKey).flatMap(IdempotencyKey.init(rawValue:))
        do {
            let (after, _) = try await catalog.adjustStock(id, adjustment, key: key, by: page.staff)
            return page.redirect(
                AdminPaths.product(id), .stockAdjusted(change: adjustment.change, stock: after.stock))
        } catch ProductChangeError.insufficientStock(let available) {
            form.errors[.change] = "Only \(available) in stock: the stock cannot go below zero. Nothing was changed."
            return try await stockAgain(page, product, form, status: .conflict)
        } catch ProductChangeError.keyReused {
            form.errors[.change] =
                "This form was already used for another adjustment. Check the ledger, then adjust again."
            form.idempotencyKey = IdempotencyKey.random().rawValue
            return try await stockAgain(page, product, form, status: .unprocessableContent)
        }
    }

    private func stockAgain(
        _ page: StaffPage, _ product: ManagedProduct, _ form: AdminProductPage.StockForm, status: HTTPStatus
    ) async throws -> Response {
        guard let now = try await catalog.product(product.id) else { return page.error(.notFound) }
        var view = try await productPage(now)
        view.stockForm = form
        return page.respond(AdminPages.product(view, context: page.context), status: status)
    }

    /// A product's page: its form (as saved, or as typed), its stock and ledger, and a fresh key for
    /// the **Adjust stock** form.
    func productPage(
        _ product: ManagedProduct, form: AdminProductForm? = nil, version: Int64? = nil,
        conflict: AdminProductPage.EditConflict? = nil
    ) async throws -> AdminProductPage {
        let ledger = try await catalog.movements(of: product.id, before: nil, limit: Self.ledgerLength).map {
            movement in
            AdminProductPage.LedgerEntry(
                at: movement.at, actor: movement.actor == "shop" ? .store : .staff(email: movement.actor),
                change: movement.change, reason: movement.reason, note: movement.note,
                orderID: movement.orderID?.rawValue, stockAfter: movement.stockAfter)
        }
        return AdminProductPage(
            id: product.id, title: product.details.title, isActive: product.details.active,
            form: form ?? AdminProductForm(product.details), version: Int(version ?? product.version),
            conflict: conflict, currency: catalog.currency, categories: try await catalog.categories(),
            imagePath: product.imagePath, stock: product.stock,
            stockForm: AdminProductPage.StockForm(idempotencyKey: IdempotencyKey.random().rawValue), ledger: ledger)
    }

    /// The product form's fields as typed.
    static func form(_ page: StaffPage) -> AdminProductForm {
        AdminProductForm(
            title: page.text(AdminFormFields.title), description: page.text(AdminFormFields.description),
            category: page.text(AdminFormFields.category), price: page.text(AdminFormFields.price),
            sku: page.text(AdminFormFields.sku),
            active: page.value(AdminFormFields.active) == AdminFormFields.checkedValue)
    }

    static func details(_ form: AdminProductForm, currency: Currency) throws(ProductDetailsError) -> ProductDetails {
        try ProductRules.details(
            sku: form.sku, title: form.title, description: form.description, category: form.category,
            priceText: form.price, active: form.active, currency: currency
        ).get()
    }

    /// A list's page number from the query: 1 unless it is a whole number from 1.
    static func pageNumber(_ text: String?) -> Int {
        guard let text, let number = Int(text), number >= 1, number <= 1_000_000 else { return 1 }
        return number
    }
}
