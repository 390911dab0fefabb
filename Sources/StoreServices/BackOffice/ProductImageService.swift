import CatalogFiles
import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase

/// Products' images (docs/BEHAVIOUR.md §13.15): a PNG or JPEG of at most 2 MiB, judged by its
/// content alone — never by its file name or the type it was sent as — kept in the database under
/// a path made from its content, and served back from there by every server.
package struct ProductImageService: Sendable {
    package let database: StoreDatabase
    package let catalog: Catalog?
    package let clock: StoreClock

    package init(database: StoreDatabase, catalog: Catalog?, clock: StoreClock) {
        self.database = database
        self.catalog = catalog
        self.clock = clock
    }

    /// Where uploaded images are served: `/images/products/<file>`.
    package static let directory = "/images/products/"
    /// How many hexadecimal digits of the content's SHA-256 name the file (128 bits).
    package static let nameDigits = 32

    /// Checks `bytes` and makes the image product `id`'s (a new version, an audit line); the
    /// product as it is now. The shop shows the new image at once.
    ///
    /// - Throws: ``CatalogFiles/ImageProblem`` (nothing written), ``StoreDatabase/ProductChangeError/notFound``.
    package func upload(_ bytes: [UInt8], to id: ProductID, by staff: StaffRecord) async throws -> ManagedProduct {
        let checked = try ProductImage.check(bytes)
        let image = StoredProductImage(
            path: Self.path(of: bytes, type: checked.type), contentType: checked.type.rawValue, bytes: bytes,
            width: checked.width, height: checked.height)
        let product = try await database.productImages.attach(image, to: id, by: staff.actor, now: clock.now())
        // The image is set either way: a failed read is retried by the periodic refresh.
        try? await catalog?.refresh()
        return product
    }

    /// The uploaded image named `file` (`<32 hexadecimal digits>.png` or `.jpg`), or `nil` when
    /// there is none or `file` cannot name one.
    package func image(named file: String) async throws -> StoredProductImage? {
        guard Self.isImageName(file) else { return nil }
        return try await database.productImages.image(at: Self.directory + file)
    }

    /// The path of an image with `bytes` of `type`: the same content always has the same path, and
    /// another content another one (so the path may be cached for ever).
    package static func path(of bytes: [UInt8], type: ImageType) -> String {
        directory + SHA256.hexDigest(bytes).prefix(nameDigits) + "." + type.fileExtension
    }

    /// Whether `file` is a name ``path(of:type:)`` makes.
    package static func isImageName(_ file: String) -> Bool {
        let parts = file.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "png" || parts[1] == "jpg" else { return false }
        let hexDigits = Set("0123456789abcdef".utf8)
        return parts[0].utf8.count == nameDigits && parts[0].utf8.allSatisfy { hexDigits.contains($0) }
    }
}
