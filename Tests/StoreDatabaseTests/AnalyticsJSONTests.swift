import Foundation
import Testing

@testable import StoreDatabase

@Suite("Analytics properties as JSON") struct AnalyticsJSONTests {
    @Test("keys sorted, so equal properties are equal text")
    func sortedKeys() {
        #expect(AnalyticsRepository.json([:]) == "{}")
        let text = AnalyticsRepository.json(["succeeded": "true", "method": "card"])
        #expect(text == #"{"method":"card","succeeded":"true"}"#)
    }

    @Test(
        "quotes, backslashes and control characters escaped; the text reads back as the properties",
        arguments: [
            "plain", "", #"say "hi""#, #"back\slash"#, "line\nbreak\ttab", "\u{1}\u{1f}", "ünï €", "🛒 basket",
            #"\"quoted\""#,
        ])
    func escaping(value: String) throws {
        let properties = ["note": value, "a\"b": "\\"]
        let text = AnalyticsRepository.json(properties)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect(object as? [String: String] == properties)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
    }
}
