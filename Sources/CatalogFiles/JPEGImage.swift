/// A JPEG file's structure (ITU-T T.81): markers of `0xFF` and a code, most followed by a segment
/// whose 2-byte length counts itself; after each start-of-scan segment, entropy-coded data in which
/// `0xFF` is followed by `0x00` (a stuffed byte) or a restart marker, up to the next marker.
enum JPEGImage {
    /// The start-of-frame markers that give the image's size: SOF0–SOF3, SOF5–SOF7, SOF9–SOF11 and
    /// SOF13–SOF15 (not DHT `C4`, JPG `C8` or DAC `CC`).
    private static let frameMarkers: Set<UInt8> = [
        0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
    ]
    private static let startOfScan: UInt8 = 0xDA
    private static let endOfImage: UInt8 = 0xD9

    /// Checks a file that starts with the JPEG start-of-image marker.
    static func check(_ bytes: [UInt8]) throws(ImageProblem) -> CheckedImage {
        var offset = 2
        var size: (width: Int, height: Int)?
        var sawScan = false
        while true {
            guard offset < bytes.count else { throw .truncated }
            guard bytes[offset] == 0xFF else { throw .damaged }
            // A marker may be preceded by any number of 0xFF fill bytes.
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { throw .truncated }
            let marker = bytes[offset]
            offset += 1
            switch marker {
            case endOfImage:
                guard sawScan, let size else { throw .damaged }
                guard ProductImage.onlyZeros(in: bytes, from: offset) else { throw .damaged }
                return CheckedImage(type: .jpeg, width: size.width, height: size.height)
            case 0x01:
                // TEM: a marker without a segment.
                continue
            case 0xC0...0xFE where !(0xD0...0xD8).contains(marker):
                guard offset + 2 <= bytes.count else { throw .truncated }
                let length = bytes.bigEndian16(at: offset)
                guard length >= 2 else { throw .damaged }
                let end = offset + length
                guard end <= bytes.count else { throw .truncated }
                if frameMarkers.contains(marker) {
                    guard size == nil else { throw .damaged }
                    size = try readFrameHeader(bytes, at: offset, length: length)
                }
                if marker == startOfScan {
                    guard size != nil else { throw .damaged }
                    let components = length >= 3 ? Int(bytes[offset + 2]) : 0
                    guard (1...4).contains(components), length == 6 + 2 * components else { throw .damaged }
                    offset = try endOfEntropyCodedData(bytes, from: end)
                    sawScan = true
                } else {
                    offset = end
                }
            default:
                // A stuffed zero, a restart marker or a second start of image outside a scan, or a
                // reserved code.
                throw .damaged
            }
        }
    }

    /// A frame header's size: precision, height, width, then three bytes per component.
    private static func readFrameHeader(
        _ bytes: [UInt8], at offset: Int, length: Int
    ) throws(ImageProblem) -> (width: Int, height: Int) {
        guard length >= 8 else { throw .damaged }
        let height = bytes.bigEndian16(at: offset + 3)
        let width = bytes.bigEndian16(at: offset + 5)
        let components = Int(bytes[offset + 7])
        guard components >= 1, length == 8 + 3 * components else { throw .damaged }
        try ProductImage.checkSize(width: width, height: height)
        return (width, height)
    }

    /// Where the marker after a scan's entropy-coded data starts.
    private static func endOfEntropyCodedData(_ bytes: [UInt8], from start: Int) throws(ImageProblem) -> Int {
        var offset = start
        while offset < bytes.count {
            guard bytes[offset] == 0xFF else {
                offset += 1
                continue
            }
            guard offset + 1 < bytes.count else { throw .truncated }
            let next = bytes[offset + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                offset += 2
                continue
            }
            return offset
        }
        throw .truncated
    }
}
