import CheckoutKit
import Foundation
import HTTPServer
import StoreAPI
import StoreServerTestSupport
import Testing

@testable import StoreServer

@Suite struct AccessLogTests {
    @Test func linesAreGatheredIntoWholeWritesAndNoneIsLost() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        let buffer = LineBuffer(descriptor: descriptor, limit: 4_096)
        let lines = (0..<2_000).map { Array("{\"line\":\($0),\"route\":\"/api/basket\"}".utf8) }
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for index in stride(from: part, to: lines.count, by: 4) {
                lines[index].withUnsafeBufferPointer(buffer.append)
            }
        }
        buffer.flush()
        close(descriptor)
        let data = try #require(FileManager.default.contents(atPath: path))
        let received = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(received.count == lines.count)
        #expect(Set(received) == Set(lines.map { String(decoding: $0, as: UTF8.self) }))
    }

    @Test func aLineIsJSONWithoutSecretsOrCardNumbers() throws {
        let captured = LogLines()
        let log = ServerLog(sink: { captured.append(String(decoding: $0, as: UTF8.self)) })
        log.record(
            AccessLogEntry(
                method: .get, route: "/shop/4242 4242 4242 4242", status: .notFound, duration: .microseconds(1_234),
                bodyBytes: 75))
        log.record(
            AccessLogEntry(
                method: .put, route: "/api/basket/items/{id}\"\n", status: .ok, duration: .seconds(2), bodyBytes: 1))
        let lines = captured.all
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["route"] as? String == "(redacted)")
        #expect(first["status"] as? Int == 404)
        #expect((first["duration_ms"] as? NSNumber)?.doubleValue == 1.234)
        #expect((first["time"] as? String)?.hasSuffix("Z") == true)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["route"] as? String == "/api/basket/items/{id}\"\n")
        #expect((second["duration_ms"] as? NSNumber)?.doubleValue == 2_000)
    }

    @Test func numbersAreWrittenInDecimalPaddedToTheirWidth() {
        let cases: [(Int64, Int, String)] = [
            (0, 1, "0"), (7, 3, "007"), (42, 1, "42"), (999, 3, "999"), (1_000, 3, "1000"), (1_234, 2, "1234"),
            (10, 1, "10"), (-5, 1, "0"), (-5, 3, "000"), (Int64.max, 1, "9223372036854775807"),
            (Int64.max, 25, "000000" + "9223372036854775807"),
        ]
        for (value, width, expected) in cases {
            let line = LineWriter.withLine(capacity: 64) { line in
                line.write("x")
                line.writeDecimal(value, width: width)
            } _: {
                Array($0)
            }
            #expect(String(decoding: line, as: UTF8.self) == "x" + expected, "\(value) width \(width)")
        }
    }

    @Test func theTimeIsTheClocksMillisecondAndTheRequestIDIsSixteenHexDigits() throws {
        let captured = LogLines()
        let log = ServerLog(sink: { captured.append(String(decoding: $0, as: UTF8.self)) })
        let before = Date()
        log.record(
            AccessLogEntry(
                requestID: 0x00ab_cdef_0123_4567, method: .get, route: "/api/products", status: .ok,
                duration: .milliseconds(3), bodyBytes: 10))
        let after = Date()
        let line = try #require(captured.all.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["request_id"] as? String == "00abcdef01234567")
        let time = try #require(object["time"] as? String)
        #expect(time.count == 24)
        let parsed = try #require(try? Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        #expect(parsed.timeIntervalSince(before) >= -0.001)
        #expect(after.timeIntervalSince(parsed) >= 0)
        #expect((object["duration_ms"] as? NSNumber)?.doubleValue == 3)
    }

    /// A line longer than the room it was given comes out cut short, never written past its end.
    @Test func aLineIsCutShortRatherThanWrittenPastItsRoom() {
        let line = LineWriter.withLine(capacity: 10) { line in
            line.write("12345678")
            line.writeJSONString("abc")
            line.write("9")
            line.writeDecimal(1_234_567)
            line.write(UInt8(ascii: "0"))
        } _: {
            Array($0)
        }
        #expect(String(decoding: line, as: UTF8.self) == "1234567890")
    }

    /// Strings the log quotes are escaped as everywhere else in the store's JSON.
    @Test func quotedStringsAreEscapedAsTheStoresJSON() throws {
        for text in ["plain /api/products", "quote \" and \\ backslash", "line\nbreak\ttab\u{01}", "é ü 日本"] {
            let line = LineWriter.withLine(capacity: 256) {
                $0.writeJSONString(text)
            } _: {
                Array($0)
            }
            var expected: [UInt8] = []
            JSONText.append(text, to: &expected)
            #expect(line == expected, "\(text)")
            let decoded = try JSONSerialization.jsonObject(with: Data(line), options: .fragmentsAllowed) as? String
            #expect(decoded == text)
        }
    }
}
