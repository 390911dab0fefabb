import AdminViews
import CatalogFiles
import CheckoutKit
import HTTPServer
import StoreDatabase
import StoreServices

/// The catalog's files in the back office's pages (docs/BEHAVIOUR.md §13.14–§13.15): **Import** (a
/// CSV file → its preview: new, changed and unchanged products and every bad row with its line →
/// **Import**, all of it or nothing), **Export**, and a product's **Image** with **Upload**.
struct BackOfficeCatalogFiles: Sendable {
    let imports: CatalogImport
    let images: ProductImageService
    let catalog: CatalogManagement

    /// The page forms that carry a file may be as large as the API's (with room for the form).
    static let largeBodies: [LargeBodyRoute] = [
        LargeBodyRoute(
            method: .post, pattern: AdminPaths.importProducts,
            maxBodyBytes: CatalogCSV.maximumBytes + AdminCatalogFileRoutes.multipartAllowance),
        LargeBodyRoute(
            method: .post, pattern: AdminPaths.productImagePattern,
            maxBodyBytes: ProductImage.maximumBytes + AdminCatalogFileRoutes.multipartAllowance),
    ]

    func register(on routes: inout RouteTable) {
        routes.staffPage(.get, AdminPaths.importProducts, .manageCatalog) { page in
            page.respond(
                AdminPages.importProducts(AdminImportPage(state: .upload(fileError: nil)), context: page.context))
        }
        routes.staffPage(.post, AdminPaths.importProducts, .manageCatalog) { page in
            if let upload = page.value(AdminFormFields.upload) { return try await apply(page, upload) }
            return try await preview(page)
        }
        routes.staffPage(.get, AdminPaths.exportProducts, .manageCatalog) { _ in
            var response = Response.bytes(try await imports.export().bytes, contentType: "text/csv; charset=utf-8")
            response.headers["Content-Disposition"] = #"attachment; filename="catalog.csv""#
            return response
        }
        routes.staffPage(.post, AdminPaths.productImagePattern, .manageCatalog) { page in try await upload(page) }
    }

    /// A chosen file → its preview (nothing is changed yet).
    private func preview(_ page: StaffPage) async throws -> Response {
        guard let file = page.file(AdminFormFields.file) else {
            return uploadAgain(page, "Choose a CSV file to import.")
        }
        let preview = try await imports.preview(file.body, by: page.staff)
        return page.respond(
            AdminPages.importProducts(
                AdminImportPage(state: .preview(Self.preview(preview, fileName: file.filename))),
                context: page.context),
            status: preview.problems.isEmpty ? .ok : .unprocessableContent)
    }

    /// **Import** on a preview: the kept file, checked again against the catalog as it is now.
    private func apply(_ page: StaffPage, _ text: String) async throws -> Response {
        guard let upload = CatalogUploadID(parsing: text) else {
            return uploadAgain(page, "That preview is unknown. Upload the file again.")
        }
        do {
            let summary = try await imports.apply(upload: upload, by: page.staff)
            return page.redirect(AdminPaths.products, .imported(added: summary.created, changed: summary.changed))
        } catch let refused as CatalogFileError {
            return uploadAgain(
                page,
                "The file has problems now: " + refused.problems.prefix(3).map(\.message).joined(separator: " ")
                    + " Nothing was imported.")
        } catch let refused as CatalogImportError {
            let message =
                switch refused {
                case .uploadNotFound:
                    "That preview has expired (a preview can be imported for an hour). Upload the file again."
                case .alreadyApplied: "This file was imported already."
                case .catalogChanged:
                    "Someone changed a product of this file meanwhile. Nothing was imported: upload the file again."
                case .stockChangeNotAllowed:
                    "This file changes stock, which your role may not adjust. Nothing was imported."
                }
            return uploadAgain(page, message)
        }
    }

    private func uploadAgain(_ page: StaffPage, _ message: String) -> Response {
        page.respond(
            AdminPages.importProducts(AdminImportPage(state: .upload(fileError: message)), context: page.context),
            status: .unprocessableContent)
    }

    /// **Upload** on a product's page: the image, checked by its content.
    private func upload(_ page: StaffPage) async throws -> Response {
        let id = try page.parameter(ProductID.self)
        guard let product = try await catalog.product(id) else { return page.error(.notFound) }
        func again(_ message: String) async throws -> Response {
            var view = try await BackOfficeProducts(catalog: catalog).productPage(product)
            view.imageError = message
            return page.respond(AdminPages.product(view, context: page.context), status: .unprocessableContent)
        }
        guard let file = page.file(AdminFormFields.image) else { return try await again("Choose a PNG or JPEG file.") }
        do {
            _ = try await images.upload(file.body, to: id, by: page.staff)
        } catch let problem as ImageProblem {
            return try await again(problem.message + " Upload a PNG or JPEG image of at most 2 MB.")
        }
        return page.redirect(AdminPaths.product(id), .imageUploaded)
    }

    static func preview(_ preview: CatalogImportPreview, fileName: String?) -> AdminImportPage.Preview {
        AdminImportPage.Preview(
            uploadID: preview.upload?.rawValue ?? "", fileName: fileName,
            newProducts: preview.plan.creations.map { creation in
                AdminImportPage.NewProduct(
                    sku: creation.details.sku, title: creation.details.title, category: creation.details.category,
                    price: creation.details.price, stock: creation.stock, active: creation.details.active)
            },
            changedProducts: preview.plan.updates.map { update in
                AdminImportPage.ChangedProduct(
                    sku: update.details.sku, title: update.details.title,
                    changes: update.changes.map {
                        AdminImportPage.Change(field: $0.field.rawValue, old: $0.from, new: $0.to)
                    })
            },
            unchangedCount: preview.plan.unchanged,
            problems: preview.problems.map { AdminImportPage.Problem(line: $0.line ?? 0, message: $0.message) })
    }
}
