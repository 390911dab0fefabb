// Shared by every fuzz target (scripts/fuzz.sh compiles it into each).

/// Percent-decoding as the URL standard defines it, byte by byte, for the targets' references:
/// `%` and two hex digits is that byte, anything else (a lone `%` included) is kept, `+` is a
/// space when `plusAsSpace`, and bytes that are not UTF-8 become U+FFFD.
func referencePercentDecoded(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool) -> String {
    let bytes = Array(bytes)
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
            let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        {
            output.append(high * 16 + low)
            index += 3
        } else {
            output.append(plusAsSpace && bytes[index] == UInt8(ascii: "+") ? 0x20 : bytes[index])
            index += 1
        }
    }
    return String(decoding: output, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
}
