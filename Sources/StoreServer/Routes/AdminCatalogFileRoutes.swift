import CatalogFiles
import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreDatabase
import StoreServices

/// The catalog's files as JSON and bytes (docs/BEHAVIOUR.md §13.14–§13.15): the CSV import (a
/// preview, then the import of the kept file) and export, product images uploaded, and uploaded
/// images served to everyone.
struct AdminCatalogFileRoutes: Sendable {
    let imports: CatalogImport
    let images: ProductImageService

    /// What a `multipart/form-data` image upload may add to the image's 2 MiB: its delimiters,
    /// part headers and any small fields beside it.
    static let multipartAllowance = 64 << 10

    /// The routes whose bodies may be larger than the server's default: a catalog file of up to
    /// 8 MiB, an image of up to 2 MiB (with room for a form around it). A larger body is answered
    /// 413 before it is kept.
    static let largeBodies: [LargeBodyRoute] = [
        LargeBodyRoute(
            method: .post, pattern: AdminEndpoints.importCatalog.pattern, maxBodyBytes: CatalogCSV.maximumBytes),
        LargeBodyRoute(
            method: .post, pattern: AdminEndpoints.uploadProductImage.pattern,
            maxBodyBytes: ProductImage.maximumBytes + multipartAllowance),
    ]

    /// The media types a catalog file may be sent as.
    static let csvTypes: Set<String> = ["text/csv", "application/csv", "text/plain"]

    func register(on routes: inout RouteTable) {
        routes.staff(AdminEndpoints.importCatalog) { request, caller in
            guard let type = Self.mediaType(of: request), Self.csvTypes.contains(type) else {
                throw HTTPError.csvBodyRequired
            }
            return try respond(CatalogImportPreviewBody(try await imports.preview(request.body, by: caller.staff)))
        }
        routes.staff(AdminEndpoints.applyCatalogImport) { _, caller in
            let upload = try caller.parameter(CatalogUploadID.self)
            do {
                return try respond(CatalogImportSummaryBody(try await imports.apply(upload: upload, by: caller.staff)))
            } catch let refused as CatalogFileError {
                let error = refused.httpError
                var response = try Response.json(
                    CatalogImportRefusalBody(
                        error: ErrorBody.Detail(type: error.type, message: error.message),
                        problems: refused.problems.map(CatalogFileProblemBody.init)),
                    status: error.status, encoder: StoreJSON.encoder)
                response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
                return response
            }
        }
        routes.staff(AdminEndpoints.exportCatalog) { _, _ in
            var response = Response.bytes(try await imports.export().bytes, contentType: "text/csv; charset=utf-8")
            response.headers.replaceOrAdd(name: "Content-Disposition", value: #"attachment; filename="catalog.csv""#)
            return response
        }
        routes.staff(AdminEndpoints.uploadProductImage) { request, caller in
            let id = try caller.parameter(ProductID.self)
            let bytes = try Self.imageBytes(of: request)
            return try respond(AdminProductBody(try await images.upload(bytes, to: id, by: caller.staff)))
        }
        routes.open(Endpoints.productImage) { request, context in
            let file = try context.parameter(ImageFileName.self).text
            guard let image = try await images.image(named: file) else { throw HTTPError.imageNotFound }
            // The name is the content's digest: the same name is always the same bytes.
            let tag = "\"" + file.prefix(ProductImageService.nameDigits) + "\""
            var response =
                matches(request.headers["If-None-Match"], tag: tag)
                ? Response(status: .notModified) : Response.bytes(image.bytes, contentType: image.contentType)
            response.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=31536000, immutable")
            response.headers.replaceOrAdd(name: "ETag", value: tag)
            return response
        }
    }

    /// The request's media type, lower case, without parameters.
    static func mediaType(of request: Request) -> String? {
        guard let header = request.headers["Content-Type"] else { return nil }
        let type = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The image's bytes: the body itself when it is sent as an image (any `image/…` type, or
    /// `application/octet-stream`), or the `image` field of a `multipart/form-data` form. The
    /// type a client gives is never believed: the bytes are judged by what they are.
    static func imageBytes(of request: Request) throws -> [UInt8] {
        guard let type = mediaType(of: request) else { throw HTTPError.imageBodyRequired }
        if type.hasPrefix("image/") || type == "application/octet-stream" { return request.body }
        guard type == "multipart/form-data" else { throw HTTPError.imageBodyRequired }
        guard let part = try request.multipartParts().first(where: { $0.name == "image" }) else {
            throw HTTPError.noImageField
        }
        return part.body
    }
}

extension CatalogUploadID: PathParameter {
    init?(pathSegment: String) { self.init(parsing: pathSegment) }
    static var notFound: HTTPError { CatalogImportError.uploadNotFound.httpError }
}

extension CatalogImportPreviewBody {
    init(_ preview: CatalogImportPreview) {
        self.init(
            upload: preview.upload?.rawValue,
            new: preview.plan.creations.map { creation in
                CatalogImportNewProduct(
                    line: creation.line, sku: creation.details.sku, title: creation.details.title,
                    category: creation.details.category, price: creation.details.price, stock: creation.stock,
                    active: creation.details.active)
            },
            changed: preview.plan.updates.map { update in
                CatalogImportChangedProduct(
                    line: update.line, productID: update.id.rawValue, sku: update.details.sku,
                    title: update.details.title,
                    changes: update.changes.map {
                        CatalogFieldChangeBody(field: $0.field.rawValue, from: $0.from, to: $0.to)
                    })
            },
            unchanged: preview.plan.unchanged, problems: preview.problems.map(CatalogFileProblemBody.init))
    }
}

extension CatalogImportSummaryBody {
    init(_ summary: CatalogImportSummary) {
        self.init(
            created: summary.created, changed: summary.changed, unchanged: summary.unchanged,
            stockAdjustments: summary.stockAdjustments)
    }
}

extension CatalogFileProblemBody {
    init(_ problem: CatalogFileProblem) {
        self.init(line: problem.line, column: problem.column, message: problem.message)
    }
}
