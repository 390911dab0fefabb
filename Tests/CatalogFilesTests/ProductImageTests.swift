import Foundation
import Testing

@testable import CatalogFiles

/// Product images checked by their content: real PNG and JPEG files, and every way one can be wrong.
@Suite struct ProductImageTests {
    /// A 3×2 RGB PNG, written by Python's zlib (its CRCs come from zlib, not from the code under test).
    static let png = bytes(
        "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==")

    /// A 3×2 baseline JPEG (SOF0, no metadata), written by ImageMagick.
    static let jpeg = bytes(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1x"
            + "eXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/"
            + "wAARCAACAAMDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAABf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/xAAVAQEBAAAAAAAAAAAA"
            + "AAAAAAAFBv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/ABRa8f/Z")

    /// A 3×2 progressive JPEG (SOF2, several scans with tables between them), written by ImageMagick.
    static let progressiveJPEG = bytes(
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwS"
            + "ExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/"
            + "wgARCAACAAMDAREAAhEBAxEB/8QAFAABAAAAAAAAAAAAAAAAAAAAB//EABUBAQEAAAAAAAAAAAAAAAAAAAYI/9oADAMBAAIQAxAAAAE5"
            + "C1T/AP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAQUCf//EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQMBAT8Bf//EABQRAQAA"
            + "AAAAAAAAAAAAAAAAAAD/2gAIAQIBAT8Bf//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEABj8Cf//EABQQAQAAAAAAAAAAAAAAAAAA"
            + "AAD/2gAIAQEAAT8hf//aAAwDAQACAAMAAAAQ/wD/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oACAEDAQE/EH//xAAUEQEAAAAAAAAAAAAA"
            + "AAAAAAAA/9oACAECAQE/EH//xAAUEAEAAAAAAAAAAAAAAAAAAAAA/9oACAEBAAE/EH//2Q==")

    static func bytes(_ base64: String) -> [UInt8] {
        Array(Data(base64Encoded: base64) ?? Data())
    }

    static func check(_ bytes: [UInt8]) -> Result<CheckedImage, ImageProblem> {
        Result { () throws(ImageProblem) in try ProductImage.check(bytes) }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(CRC32.checksum(typeAndData))
    }

    /// A PNG made of `chunks` after the signature, with correct CRCs.
    static func png(_ chunks: [[UInt8]]) -> [UInt8] {
        ProductImage.pngSignature + chunks.flatMap { $0 }
    }

    static func header(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colourType: UInt8 = 2) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colourType, 0, 0, 0])
    }

    /// The fixture's own compressed pixels.
    static let pixels = chunk("IDAT", Array(png[41..<57]))
    static let end = chunk("IEND", [])

    /// The offset of the JPEG fixture's SOF0 marker.
    static func frameOffset(_ jpeg: [UInt8]) -> Int {
        (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 } ?? 0
    }

    // MARK: Accepted

    @Test("a PNG: its type and size")
    func validPNG() {
        #expect(Self.png.count == 73)
        #expect(Self.check(Self.png) == .success(CheckedImage(type: .png, width: 3, height: 2)))
    }

    @Test("a baseline JPEG: its type and size")
    func validJPEG() {
        #expect(Self.jpeg.count == 285)
        #expect(Self.check(Self.jpeg) == .success(CheckedImage(type: .jpeg, width: 3, height: 2)))
    }

    @Test("a progressive JPEG with several scans")
    func progressiveJPEG() {
        #expect(Self.progressiveJPEG.count == 523)
        #expect(Self.check(Self.progressiveJPEG) == .success(CheckedImage(type: .jpeg, width: 3, height: 2)))
    }

    @Test("a PNG built here with its CRCs, and with an ancillary chunk")
    func builtPNG() {
        #expect(Self.png([Self.header(width: 3, height: 2), Self.pixels, Self.end]) == Self.png)
        let withText = Self.png([
            Self.header(width: 3, height: 2), Self.chunk("tEXt", Array("Comment\u{0}hi".utf8)), Self.pixels, Self.end,
        ])
        #expect(Self.check(withText) == .success(CheckedImage(type: .png, width: 3, height: 2)))
    }

    @Test("zero bytes after the end are allowed, up to 2 MiB in all")
    func zeroPadding() {
        let padded = Self.png + [UInt8](repeating: 0, count: ProductImage.maximumBytes - Self.png.count)
        #expect(Self.check(padded) == .success(CheckedImage(type: .png, width: 3, height: 2)))
        #expect(Self.check(Self.jpeg + [0, 0]) == .success(CheckedImage(type: .jpeg, width: 3, height: 2)))
    }

    @Test("the largest side accepted is 8,000 pixels")
    func largestSide() {
        #expect(
            Self.check(Self.png([Self.header(width: 8_000, height: 8_000), Self.pixels, Self.end]))
                == .success(CheckedImage(type: .png, width: 8_000, height: 8_000)))
        #expect(ProductImage.maximumSide == 8_000)
        #expect(ProductImage.maximumBytes == 2_097_152)
    }

    // MARK: Refused

    @Test("no bytes at all")
    func empty() {
        #expect(Self.check([]) == .failure(.empty))
    }

    @Test("2 MiB + 1 bytes is too large, whatever they are")
    func tooLarge() {
        let padded = Self.png + [UInt8](repeating: 0, count: ProductImage.maximumBytes + 1 - Self.png.count)
        #expect(padded.count == 2 * 1024 * 1024 + 1)
        #expect(Self.check(padded) == .failure(.tooLarge))
        #expect(Self.check([UInt8](repeating: 0x41, count: 2 * 1024 * 1024 + 1)) == .failure(.tooLarge))
    }

    @Test("an SVG, text, a GIF and a WebP are not PNG or JPEG, whatever their name")
    func otherFormats() {
        let svg = Array(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3\" height=\"2\"><script>alert(1)</script></svg>".utf8)
        let gif = Array("GIF89a".utf8) + [3, 0, 2, 0, 0x80, 0, 0] + [UInt8](repeating: 0, count: 20)
        let webp = Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8) + [UInt8](repeating: 0, count: 14)
        for bytes in [svg, Array("hello".utf8), gif, webp, [0x00], Array("\u{FEFF}<?xml version=\"1.0\"?>".utf8)] {
            #expect(Self.check(bytes) == .failure(.notPNGOrJPEG), "\(bytes.prefix(8))")
        }
    }

    @Test("a PNG with a bad CRC is damaged")
    func badCRC() {
        var damaged = Self.png
        damaged[45] ^= 0x01  // a byte of the IDAT data
        #expect(Self.check(damaged) == .failure(.damaged))
        var badChecksum = Self.png
        badChecksum[29] ^= 0x80  // IHDR's CRC
        #expect(Self.check(badChecksum) == .failure(.damaged))
    }

    @Test("a PNG cut short is truncated, wherever it is cut")
    func truncatedPNG() {
        #expect(Self.check(Array(Self.png.prefix(40))) == .failure(.truncated))
        for length in [4, 8, 20, 33, 60, Self.png.count - 1] {
            #expect(Self.check(Array(Self.png.prefix(length))) == .failure(.truncated), "\(length) bytes")
        }
    }

    @Test("a JPEG cut short is truncated: without its end-of-image marker, or in a segment")
    func truncatedJPEG() {
        #expect(Self.check(Array(Self.jpeg.dropLast(2))) == .failure(.truncated))
        for length in [2, 3, 10, 100, 200, Self.jpeg.count - 1] {
            #expect(Self.check(Array(Self.jpeg.prefix(length))) == .failure(.truncated), "\(length) bytes")
        }
    }

    @Test("a side above 8,000 pixels: too many pixels")
    func tooManyPixels() {
        #expect(
            Self.check(Self.png([Self.header(width: 100_000, height: 1), Self.pixels, Self.end]))
                == .failure(.tooManyPixels))
        #expect(
            Self.check(Self.png([Self.header(width: 1, height: 8_001), Self.pixels, Self.end]))
                == .failure(.tooManyPixels))
        var wide = Self.jpeg
        let frame = Self.frameOffset(wide)
        wide[frame + 7] = 0x23  // width 0x2303 = 8,963
        wide[frame + 8] = 0x03
        #expect(Self.check(wide) == .failure(.tooManyPixels))
    }

    @Test("a side of zero pixels: damaged")
    func zeroSide() {
        #expect(
            Self.check(Self.png([Self.header(width: 0, height: 2), Self.pixels, Self.end])) == .failure(.damaged))
        #expect(
            Self.check(Self.png([Self.header(width: 3, height: 0), Self.pixels, Self.end])) == .failure(.damaged))
        var noHeight = Self.jpeg
        let frame = Self.frameOffset(noHeight)
        #expect(frame == 158)
        noHeight[frame + 5] = 0
        noHeight[frame + 6] = 0
        #expect(Self.check(noHeight) == .failure(.damaged))
    }

    @Test("a PNG whose chunks are out of order, missing or unknown is damaged")
    func brokenPNGStructure() {
        let header = Self.header(width: 3, height: 2)
        let cases: [(String, [[UInt8]])] = [
            ("IDAT before IHDR", [Self.pixels, header, Self.end]),
            ("no IDAT", [header, Self.end]),
            ("two IHDRs", [header, header, Self.pixels, Self.end]),
            ("an unknown critical chunk", [header, Self.chunk("ABCD", [1]), Self.pixels, Self.end]),
            ("a bad bit depth", [Self.header(width: 3, height: 2, bitDepth: 3), Self.pixels, Self.end]),
            (
                "a palette image without a palette",
                [Self.header(width: 3, height: 2, colourType: 3), Self.pixels, Self.end]
            ),
            ("a chunk type that is not letters", [header, Self.chunk("ab1d", []), Self.pixels, Self.end]),
        ]
        for (name, chunks) in cases {
            #expect(Self.check(Self.png(chunks)) == .failure(.damaged), "\(name)")
        }
    }

    @Test("anything but zero bytes after the end is damaged (no file hidden behind an image)")
    func trailingData() {
        #expect(Self.check(Self.png + Array("<html>".utf8)) == .failure(.damaged))
        #expect(Self.check(Self.png + Self.chunk("tEXt", [0x41])) == .failure(.damaged))
        #expect(Self.check(Self.jpeg + Array("PK\u{3}\u{4}".utf8)) == .failure(.damaged))
    }

    @Test("a JPEG whose markers are broken is damaged")
    func brokenJPEGStructure() {
        // A segment that does not start with 0xFF (the first quantization table's marker).
        var noMarker = Self.jpeg
        #expect(noMarker[20...21] == [0xFF, 0xDB])
        noMarker[20] = 0x00
        #expect(Self.check(noMarker) == .failure(.damaged))
        // Start of scan before any frame header.
        #expect(
            Self.check([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0xFF, 0xD9])
                == .failure(.damaged))
        // End of image straight after the start.
        #expect(Self.check([0xFF, 0xD8, 0xFF, 0xD9]) == .failure(.damaged))
        // A segment length below 2.
        #expect(Self.check([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xD9]) == .failure(.damaged))
    }

    // MARK: The API's words

    @Test("each problem's sentence for the merchant")
    func messages() {
        #expect(ImageProblem.empty.message == "The image file is empty.")
        #expect(ImageProblem.tooLarge.message == "The image is larger than 2 MB.")
        #expect(ImageProblem.notPNGOrJPEG.message == "That file is not a PNG or JPEG image.")
        #expect(ImageProblem.truncated.message == "The image file is cut short.")
        #expect(ImageProblem.damaged.message == "The image file is damaged.")
        #expect(ImageProblem.tooManyPixels.message == "The image is larger than 8,000 pixels on a side.")
    }

    @Test("each type's media type and file extension")
    func types() {
        #expect(ImageType.png.rawValue == "image/png")
        #expect(ImageType.jpeg.rawValue == "image/jpeg")
        #expect(ImageType.png.fileExtension == "png")
        #expect(ImageType.jpeg.fileExtension == "jpg")
    }

    @Test("CRC-32 gives the standard check values")
    func crc32() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
