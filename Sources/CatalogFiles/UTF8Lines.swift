/// Finds the physical lines whose bytes are not well-formed UTF-8 (the Unicode standard's table
/// 3-7: no overlong forms, no surrogates, nothing above U+10FFFF, no cut sequences), in one pass.
enum UTF8Lines {
    /// The lines (1-based, counted from `start`) that hold bytes that are not UTF-8, in order, each once.
    static func badLines(in bytes: [UInt8], from start: Int) -> [Int] {
        var bad: [Int] = []
        var line = 1
        var position = start
        func markBad() {
            if bad.last != line { bad.append(line) }
        }
        while position < bytes.count {
            let lead = bytes[position]
            if lead < 0x80 {
                if lead == UInt8(ascii: "\n") { line += 1 }
                position += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                secondRange = 0x80...0x9F
            case 0xF0:
                length = 4
                secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                secondRange = 0x80...0x8F
            default:
                markBad()
                position += 1
                continue
            }
            var valid = 1
            while valid < length, position + valid < bytes.count {
                let byte = bytes[position + valid]
                let range: ClosedRange<UInt8> = valid == 1 ? secondRange : 0x80...0xBF
                guard range.contains(byte) else { break }
                valid += 1
            }
            if valid < length {
                // A cut or broken sequence: its bytes so far are bad; what follows is read afresh.
                markBad()
            }
            position += valid
        }
        return bad
    }
}
