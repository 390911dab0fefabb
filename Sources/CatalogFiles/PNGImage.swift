/// A PNG file's structure (ISO/IEC 15948): the signature, then chunks of a 4-byte length, a 4-letter
/// type, the data and a CRC-32 of type and data.
enum PNGImage {
    private static let ihdr = Array("IHDR".utf8)
    private static let plte = Array("PLTE".utf8)
    private static let idat = Array("IDAT".utf8)
    private static let iend = Array("IEND".utf8)

    /// The bit depths each colour type allows.
    private static let bitDepths: [UInt8: Set<UInt8>] = [
        0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
    ]

    /// Checks a file that starts with the PNG signature.
    static func check(_ bytes: [UInt8]) throws(ImageProblem) -> CheckedImage {
        var offset = ProductImage.pngSignature.count
        var header: (width: Int, height: Int, colourType: UInt8)?
        var sawPalette = false
        var sawData = false
        while true {
            guard offset + 8 <= bytes.count else { throw .truncated }
            let length = bytes.bigEndian32(at: offset)
            guard length <= 0x7FFF_FFFF else { throw .damaged }
            let type = Array(bytes[(offset + 4)..<(offset + 8)])
            guard type.allSatisfy(isLetter) else { throw .damaged }
            let dataStart = offset + 8
            let dataEnd = dataStart + Int(length)
            guard dataEnd + 4 <= bytes.count else { throw .truncated }
            guard CRC32.checksum(bytes[(offset + 4)..<dataEnd]) == bytes.bigEndian32(at: dataEnd) else {
                throw .damaged
            }
            offset = dataEnd + 4

            guard let known = header else {
                guard type == ihdr, length == 13 else { throw .damaged }
                header = try readHeader(bytes, at: dataStart)
                continue
            }
            switch type {
            case ihdr:
                throw .damaged
            case plte:
                guard length % 3 == 0, (3...768).contains(length), !sawData, !sawPalette else { throw .damaged }
                sawPalette = true
            case idat:
                sawData = true
            case iend:
                guard length == 0, sawData, known.colourType != 3 || sawPalette else { throw .damaged }
                guard ProductImage.onlyZeros(in: bytes, from: offset) else { throw .damaged }
                return CheckedImage(type: .png, width: known.width, height: known.height)
            default:
                // An unknown critical chunk (its first letter upper case) cannot be skipped.
                guard type[0] >= UInt8(ascii: "a") else { throw .damaged }
            }
        }
    }

    /// IHDR's 13 bytes: width, height, bit depth, colour type, compression, filter, interlace.
    private static func readHeader(
        _ bytes: [UInt8], at offset: Int
    ) throws(ImageProblem) -> (width: Int, height: Int, colourType: UInt8) {
        let width = bytes.bigEndian32(at: offset)
        let height = bytes.bigEndian32(at: offset + 4)
        guard width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else { throw .damaged }
        let bitDepth = bytes[offset + 8]
        let colourType = bytes[offset + 9]
        guard let depths = bitDepths[colourType], depths.contains(bitDepth) else { throw .damaged }
        guard bytes[offset + 10] == 0, bytes[offset + 11] == 0, bytes[offset + 12] <= 1 else { throw .damaged }
        try ProductImage.checkSize(width: Int(width), height: Int(height))
        return (Int(width), Int(height), colourType)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
