import CheckoutKit
import Foundation
import StoreSQL

/// A product image as the store keeps it: in the database, so that every server serves it.
public struct StoredProductImage: Hashable, Sendable {
    /// Where it is served: `/images/products/<name>.png` or `.jpg`, the name made from its content.
    public let path: String
    /// `image/png` or `image/jpeg`, as its content is.
    public let contentType: String
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int

    public init(path: String, contentType: String, bytes: [UInt8], width: Int, height: Int) {
        self.path = path
        self.contentType = contentType
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}

/// Products' uploaded images (docs/BEHAVIOUR.md §13.15): kept once per content, set on a product in
/// the transaction that writes its audit line, and read back to be served.
public struct ProductImageRepository: Sendable {
    let database: any SQLDatabase

    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Keeps `image` (once: the same content has the same path) and makes it product `id`'s
    /// image: a new version of the product and a `product.image_changed` audit line, in one
    /// transaction. Setting the image a product already has changes nothing.
    ///
    /// - Throws: ``ProductChangeError/notFound``.
    public func attach(
        _ image: StoredProductImage, to id: ProductID, by actor: AuditActor, now: Date
    ) async throws -> ManagedProduct {
        try await database.write { connection in
            // On PostgreSQL the product's row is locked, so two uploads for one product queue here.
            let lock: SQLQuery = connection.dialect == .postgres ? " FOR UPDATE" : ""
            guard
                let current = try connection.queryFirst(
                    "SELECT \(ProductRepository.columns) FROM products p WHERE p.id = \(id.rawValue)\(lock)"
                ).map(ProductRepository.read)
            else { throw ProductChangeError.notFound }
            guard current.imagePath != image.path else { return current }
            // The same bytes uploaded again (for this product or another) are kept once.
            try connection.execute(
                """
                INSERT INTO product_images (path, product_id, content_type, bytes, width, height, uploaded_at)
                VALUES (\(image.path), \(id.rawValue), \(image.contentType), \(image.bytes), \(image.width),
                        \(image.height), \(now.unixMilliseconds))
                ON CONFLICT (path) DO NOTHING
                """)
            try connection.execute(
                """
                UPDATE products
                SET image_path = \(image.path), version = version + 1, updated_at = \(now.unixMilliseconds),
                    updated_by = \(actor.name)
                WHERE id = \(id.rawValue)
                """)
            guard let updated = try ProductRepository.product(id, on: connection) else {
                throw ProductChangeError.notFound
            }
            try AuditRepository.record(
                .productImageChanged, subject: "product:\(id)", by: actor,
                before: AuditValues.object(["image": current.imagePath]),
                after: AuditValues.object([
                    "image": image.path, "content_type": image.contentType, "bytes": String(image.bytes.count),
                    "width": String(image.width), "height": String(image.height),
                ]),
                at: now, on: connection)
            return updated
        }
    }

    /// The uploaded image served at `path`, or `nil`.
    public func image(at path: String) async throws -> StoredProductImage? {
        try await database.read { connection in
            try connection.queryFirst(
                "SELECT path, content_type, bytes, width, height FROM product_images WHERE path = \(path)"
            ).map { row in
                StoredProductImage(
                    path: try row.decode("path"), contentType: try row.decode("content_type"),
                    bytes: try row.decode("bytes"), width: try row.decode("width"), height: try row.decode("height"))
            }
        }
    }
}
