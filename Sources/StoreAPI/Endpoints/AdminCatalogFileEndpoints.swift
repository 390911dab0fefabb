import CheckoutKit

/// The catalog's files in the back office's JSON API (docs/BEHAVIOUR.md §13.14–§13.15): the CSV
/// import and export, and product images.
extension AdminEndpoints {
    /// Reads a catalog CSV sent as the body (`Content-Type: text/csv`, at most 8 MiB) and answers
    /// the preview (200), with an `upload` id to import it when it has no problem. Changes nothing.
    public static let importCatalog = Endpoint<RawBytes, CatalogImportPreviewBody>(
        .post, "/api/admin/products/import", access: .staff(.manageCatalog))
    /// Imports a previewed file, checked again against the catalog as it is now, all or nothing →
    /// 200 with what it did; 422 `invalid_catalog_file` with the problems; 404 `upload_not_found`;
    /// 409 `already_imported` or `catalog_changed`.
    public static let applyCatalogImport = Endpoint<NoBody, CatalogImportSummaryBody>(
        .post, "/api/admin/products/import/{upload}/apply", access: .staff(.manageCatalog))
    /// Every product, archived too, as a catalog CSV (`text/csv`) that imports back to no change.
    public static let exportCatalog = Endpoint<NoBody, RawBytes>(
        .get, "/api/admin/products/export.csv", access: .staff(.manageCatalog))
    /// Makes a PNG or JPEG (at most 2 MiB; the body as `image/png` or `image/jpeg`, or the field
    /// `image` of a `multipart/form-data` form) the product's image → the product; 413 over 2 MiB,
    /// 415 for another body, 422 `invalid_image` for what is not a whole PNG or JPEG.
    public static let uploadProductImage = Endpoint<RawBytes, AdminProductBody>(
        .post, "/api/admin/products/{id}/image", access: .staff(.manageCatalog))
}

extension Endpoints {
    /// An uploaded product image (PNG or JPEG), named after its content: cacheable for ever.
    public static let productImage = Endpoint<NoBody, RawBytes>(.get, "/images/products/{file}")
}
