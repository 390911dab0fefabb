/// The kinds of image a product may have.
public enum ImageType: String, Hashable, Sendable {
    case png = "image/png"
    case jpeg = "image/jpeg"

    /// The file name extension for the type, without a dot: `png` or `jpg`.
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        }
    }
}

/// An image whose bytes were checked: its type and size in pixels (both sides above zero).
public struct CheckedImage: Hashable, Sendable {
    /// The type the content is, whatever the file was called.
    public let type: ImageType
    /// The width in pixels, 1 to ``ProductImage/maximumSide``.
    public let width: Int
    /// The height in pixels, 1 to ``ProductImage/maximumSide``.
    public let height: Int

    /// An image of `type`, `width` × `height` pixels.
    public init(type: ImageType, width: Int, height: Int) {
        self.type = type
        self.width = width
        self.height = height
    }
}

/// Why an uploaded file cannot be a product's image.
public enum ImageProblem: Error, Hashable, Sendable {
    /// The file has no bytes.
    case empty
    /// The file is larger than ``ProductImage/maximumBytes``.
    case tooLarge
    /// The content is neither a PNG nor a JPEG image (an SVG, a GIF, a WebP, text…).
    case notPNGOrJPEG
    /// The content starts as a PNG or JPEG image but ends before the image does.
    case truncated
    /// The content starts as a PNG or JPEG image but its structure is broken.
    case damaged
    /// A side of the image is longer than ``ProductImage/maximumSide`` pixels.
    case tooManyPixels

    /// One sentence for the merchant, e.g. "The image is larger than 2 MB."
    public var message: String {
        switch self {
        case .empty: "The image file is empty."
        case .tooLarge: "The image is larger than 2 MB."
        case .notPNGOrJPEG: "That file is not a PNG or JPEG image."
        case .truncated: "The image file is cut short."
        case .damaged: "The image file is damaged."
        case .tooManyPixels: "The image is larger than 8,000 pixels on a side."
        }
    }
}

/// Checks an uploaded product image by its content, never by its file name.
public enum ProductImage {
    /// The largest image accepted: 2 MiB.
    public static let maximumBytes: Int = 2 * 1024 * 1024
    /// The longest side accepted, in pixels.
    public static let maximumSide: Int = 8_000

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// A JPEG's start-of-image marker and the first byte of the marker after it.
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The image's type and size, or why it is not an image the shop takes.
    ///
    /// The whole structure is walked: a PNG's signature, then its chunks by length with every
    /// chunk's CRC-32 checked, IHDR first with a width and height above zero, at least one IDAT, and
    /// IEND last with nothing but zero bytes after it; a JPEG's start-of-image marker, its segments
    /// by length up to each start-of-scan, a SOF0–SOF3, SOF5–SOF7, SOF9–SOF11 or SOF13–SOF15
    /// frame header with a width and height above zero, the entropy-coded data, and an
    /// end-of-image marker at the end (followed by nothing but zero bytes). The size is checked
    /// before anything is parsed.
    public static func check(_ bytes: [UInt8]) throws(ImageProblem) -> CheckedImage {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= maximumBytes else { throw .tooLarge }
        if bytes.starts(with: pngSignature) { return try PNGImage.check(bytes) }
        if bytes.starts(with: jpegSignature) { return try JPEGImage.check(bytes) }
        if pngSignature.starts(with: bytes) || jpegSignature.starts(with: bytes) { throw .truncated }
        throw .notPNGOrJPEG
    }

    /// Whether `width` × `height` is a size the shop takes, throwing the problem when not.
    static func checkSize(width: Int, height: Int) throws(ImageProblem) {
        guard width > 0, height > 0 else { throw .damaged }
        guard width <= maximumSide, height <= maximumSide else { throw .tooManyPixels }
    }

    /// Whether every byte from `offset` on is zero (padding some tools leave after the end).
    static func onlyZeros(in bytes: [UInt8], from offset: Int) -> Bool {
        offset >= bytes.count || bytes[offset...].allSatisfy { $0 == 0 }
    }
}

/// The big-endian whole numbers image formats are written in.
extension Array where Element == UInt8 {
    func bigEndian16(at offset: Int) -> Int {
        Int(self[offset]) << 8 | Int(self[offset + 1])
    }

    func bigEndian32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8
            | UInt32(self[offset + 3])
    }
}
