import CheckoutKit
import StoreAPI
import StoreClient
import StoreServices
import Testing

/// The status-to-case table of `StoreClientError`, answer by answer, without a network.
@Suite("Every answer maps to one error") struct AnswerTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var status: Int
        var body: String
        var headers: HeaderFields = [:]
        var expected: StoreClientError

        var testDescription: String { "\(status) \(body.prefix(60))" }
    }

    static func error(_ type: String, _ message: String, reason: String? = nil, field: String? = nil) -> String {
        let body = ErrorBody(type: type, message: message, reason: reason, field: field)
        return (try? StoreJSON.encoder.encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    static let cases: [Case] = [
        Case(
            status: 400, body: error("malformed_json", "Not JSON."),
            expected: .invalid(type: "malformed_json", message: "Not JSON.", field: nil)),
        Case(status: 401, body: error("unauthorized", "Log in."), expected: .unauthorized(message: "Log in.")),
        Case(
            status: 402, body: error("declined", "Declined.", reason: "card_declined"),
            expected: .declined(reason: .cardDeclined, message: "Declined.")),
        Case(
            status: 402, body: error("declined", "Declined."),
            expected: .declined(reason: DeclineReason(rawValue: ""), message: "Declined.")),
        Case(
            status: 402, body: error("payment_required", "Pay."),
            expected: .unexpectedAnswer(status: 402, detail: "a 402 answer of type payment_required")),
        Case(status: 404, body: error("not_found", "No."), expected: .notFound(message: "No.")),
        Case(status: 409, body: error("price_changed", "New price."), expected: .priceChanged(message: "New price.")),
        Case(status: 409, body: error("out_of_stock", "Gone."), expected: .outOfStock(message: "Gone.")),
        Case(status: 409, body: error("idempotency_in_progress", "Wait."), expected: .idempotencyInProgress),
        Case(status: 409, body: error("payment_in_progress", "Wait."), expected: .paymentInProgress),
        Case(
            status: 409, body: error("promotion_unavailable", "Code gone."),
            expected: .conflict(type: "promotion_unavailable", message: "Code gone.")),
        Case(
            status: 413, body: error("payload_too_large", "Too big."),
            expected: .invalid(type: "payload_too_large", message: "Too big.", field: nil)),
        Case(
            status: 422, body: error("idempotency_mismatch", "Other request.", field: "expected_total"),
            expected: .idempotencyMismatch(field: "expected_total")),
        Case(
            status: 422, body: error("invalid_quantity", "1 to 10.", field: "quantity"),
            expected: .invalid(type: "invalid_quantity", message: "1 to 10.", field: "quantity")),
        Case(
            status: 429, body: error("too_many_attempts", "Later."), headers: ["Retry-After": "120"],
            expected: .tooManyRequests(message: "Later.", retryAfter: .seconds(120))),
        Case(
            status: 429, body: "", headers: ["retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"],
            expected: .tooManyRequests(message: "Too many attempts. Try again in a moment.", retryAfter: nil)),
        Case(status: 503, body: error("unavailable", "Retry."), expected: .unavailable),
        Case(status: 503, body: "<html>Maintenance</html>", expected: .unavailable),
        Case(status: 502, body: "", expected: .unavailable),
        Case(status: 504, body: "", expected: .unavailable),
        Case(
            status: 500, body: error("internal_error", "Oops."),
            expected: .unexpectedAnswer(status: 500, detail: "a 500 answer of type internal_error")),
        Case(
            status: 401, body: "<html>Login</html>",
            expected: .unexpectedAnswer(status: 401, detail: "a 401 answer without the store's error body")),
        Case(
            status: 409, body: #"{"error":{"type":"price_chan"#,
            expected: .unexpectedAnswer(status: 409, detail: "a 409 answer without the store's error body")),
        Case(
            status: 302, body: "",
            expected: .unexpectedAnswer(status: 302, detail: "a 302 answer without the store's error body")),
    ]

    @Test("status and error body → case", arguments: cases)
    func mapping(_ answer: Case) {
        let response = TransportResponse(status: answer.status, headers: answer.headers, body: Array(answer.body.utf8))
        #expect(StoreClientError(response: response) == answer.expected)
    }

    @Test("no answer is unavailable; something that is not HTTP, or a request never sent, is unexpected")
    func transportErrors() {
        for error in [TransportError.timedOut, .cannotConnect, .connectionLost, .cancelled] {
            #expect(StoreClientError(error) == .unavailable)
        }
        #expect(StoreClientError(.invalidResponse(detail: "x")) == .unexpectedAnswer(status: nil, detail: "x"))
        guard case .unexpectedAnswer(nil, _) = StoreClientError(.invalidRequest(detail: "x")) else {
            Issue.record("an invalid request is an unexpected answer")
            return
        }
    }

    @Test("a payment's outcome is unknown exactly after unavailable, an unreadable answer, and both \"in progress\"")
    func outcomeUnknown() {
        let unknown = Self.cases.map(\.expected).filter(\.isOutcomeUnknown)
        #expect(
            unknown.allSatisfy {
                switch $0 {
                case .unavailable, .unexpectedAnswer, .idempotencyInProgress, .paymentInProgress: true
                default: false
                }
            })
        #expect(StoreClientError.declined(reason: .cardDeclined, message: "").isOutcomeUnknown == false)
    }

    @Test("header names are matched whatever their case")
    func headerNames() {
        var headers: HeaderFields = ["Retry-After": "1"]
        #expect(headers["retry-after"] == "1")
        headers["RETRY-AFTER"] = "2"
        #expect(headers.fields == [HeaderFields.Field(name: "RETRY-AFTER", value: "2")])
        headers["Retry-After"] = nil
        #expect(headers.fields.isEmpty)
    }
}
