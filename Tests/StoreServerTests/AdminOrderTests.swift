import CheckoutKit
import Foundation
import StoreAPI
import StoreDatabase
import StoreServerTestSupport
import StoreServices
import StoreTestSupport
import Testing

@testable import StoreServer

extension TestStore {
    /// Pays for `lines` (product id, quantity) as the shopper `token` through the checkout; the
    /// order as the shopper's `GET /api/orders/{id}` shows it.
    func placeOrder(
        _ lines: [(product: Int, quantity: Int)], token: String, method: String = visa
    ) async throws -> OrderBody {
        for line in lines {
            let set = try await setQuantity(line.quantity, of: line.product, token: token)
            guard set.status == 200 else { throw TestError("setting a quantity answered \(set.status): \(set.text)") }
        }
        let paid = try await checkout(
            token: token, key: UUID().uuidString, method: method, total: try await basket(token).total.amountText)
        guard paid.status == 201 else { throw TestError("checkout answered \(paid.status): \(paid.text)") }
        // As the shopper reads it back: the instant as stored, to the millisecond.
        return try await send(Endpoints.order, try paid.decode(OrderBody.self).id, token: token).decode(OrderBody.self)
    }

    /// A demo customer's session token.
    func customerToken(_ email: String, _ password: String) async throws -> String {
        let reply = try await login(email, password)
        guard reply.status == 200 else { throw TestError("login answered \(reply.status): \(reply.text)") }
        return try reply.decode(LoginResponse.self).token
    }

    /// The back office's order list for the query string `query`, as `token`.
    func adminOrders(_ query: String = "", token: String) async throws -> AdminOrderList {
        let reply = try await send("GET", "/api/admin/orders" + (query.isEmpty ? "" : "?" + query), token: token)
        guard reply.status == 200 else { throw TestError("GET /api/admin/orders?\(query) answered \(reply.status)") }
        return try reply.decode(AdminOrderList.self)
    }

    /// Asks for order `id` to be marked `status`.
    func moveOrder(
        _ id: String, to status: String, tracking: String? = nil, expected: String? = nil, token: String?
    ) async throws -> Reply {
        try await send(
            AdminEndpoints.moveOrder, id,
            body: FulfilmentRequest(status: status, trackingNumber: tracking, expectedStatus: expected), token: token)
    }

    /// How many timeline lines and `order.fulfilment` audit lines order `id` has.
    func orderTrail(_ id: String) async throws -> (events: Int, audits: Int) {
        try await database.sql.read { connection in
            let events =
                try connection.queryFirst("SELECT COUNT(*) AS n FROM order_events WHERE order_id = \(id)")?.decode(
                    "n", as: Int.self) ?? -1
            let audits =
                try connection.queryFirst(
                    "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'order.fulfilment' AND subject = \("order:" + id)"
                )?.decode("n", as: Int.self) ?? -1
            return (events, audits)
        }
    }
}

/// The day of `timestamp` in UTC, `2025-03-12`.
private func utcDay(_ timestamp: String) throws -> String {
    String(try #require(timestamp.split(separator: "T").first))
}

/// The day after `day`, in UTC.
private func dayAfter(_ day: String) throws -> String {
    let start = try #require(OrderManagement.startOfDay(day))
    return String(StoreJSON.timestamp(start.addingTimeInterval(OrderManagement.day)).prefix(10))
}

/// The back office's orders through their JSON API (docs/BEHAVIOUR.md §13.8): the list with its
/// filters and search, an order with its timeline, and fulfilment steps that apply once, from the
/// state they name, with their timeline and audit lines — or not at all.
@Suite("Back office: orders and fulfilment") struct AdminOrderTests {
    @Test(
        "orders newest first, filtered by payment, fulfilment and days, searched by id and email, a page at a time",
        arguments: Backend.allCases)
    func listing(backend: Backend) async throws {
        let time = MovableClock()
        try await TestStore.with(backend, clock: time.clock) { store in
            let guest = try await store.placeOrder(
                [(1, 2), (3, 1)], token: try await store.newSession(), method: #"{"type":"qr_code"}"#)
            time.advance(by: 3 * 24 * 3_600)
            let pro = try await store.placeOrder(
                [(2, 1)], token: try await store.customerToken("pro@onlinestore.test", "pro-demo-password"))
            time.advance(by: 60)
            let free = try await store.placeOrder(
                [(4, 3)], token: try await store.customerToken("free@onlinestore.test", "free-demo-password"),
                method: #"{"type":"payment_link"}"#)
            let owner = try await store.ownerToken()

            let all = try await store.adminOrders(token: owner)
            #expect(all.total == 3)
            #expect(all.offset == 0)
            #expect(all.limit == 50)
            #expect(all.orders.map(\.id) == [free.id, pro.id, guest.id])
            let first = try #require(all.orders.first)
            #expect(first.customerEmail == "free@onlinestore.test")
            #expect(first.total == free.total)
            #expect(first.paymentStatus == "paid")
            #expect(first.fulfilmentStatus == "unfulfilled")
            #expect(first.itemCount == 3)
            #expect(try StoreJSON.timestampStyle.parse(first.createdAt) == free.createdAt)
            #expect(all.orders.last?.customerEmail == nil)
            #expect(all.orders.last?.itemCount == 3)
            let raw = try await store.send("GET", "/api/admin/orders?limit=1", token: owner).text
            #expect(raw.contains(#""customer_email":"free@onlinestore.test""#))
            #expect(raw.contains(#""item_count":3"#))

            // A page at a time, the total over every page.
            let second = try await store.adminOrders("offset=1&limit=1", token: owner)
            #expect(second.orders.map(\.id) == [pro.id])
            #expect(second.total == 3)
            #expect(second.limit == 1)
            #expect(try await store.adminOrders("offset=3", token: owner).orders.isEmpty)

            // Fulfilment.
            #expect(try await store.moveOrder(pro.id, to: "packed", token: owner).status == 200)
            let packed = try await store.adminOrders("fulfilment_status=packed", token: owner)
            #expect(packed.orders.map(\.id) == [pro.id])
            #expect(packed.total == 1)
            #expect(
                try await store.adminOrders("fulfilment_status=unfulfilled", token: owner).orders.map(\.id) == [
                    free.id, guest.id,
                ])
            #expect(try await store.adminOrders("fulfilment_status=delivered", token: owner).total == 0)

            // Payment: every order is paid until a refund; one refunded in full is `refunded`.
            #expect(try await store.adminOrders("payment_status=paid", token: owner).total == 3)
            #expect(try await store.adminOrders("payment_status=partially_refunded", token: owner).total == 0)
            let refund = try await store.refund(
                guest.id, RefundRequestBody(amount: guest.total, reason: "goodwill"), token: owner)
            #expect(refund.status == 201)
            let refunded = try await store.adminOrders("payment_status=refunded", token: owner)
            #expect(refunded.orders.map(\.id) == [guest.id])
            #expect(refunded.orders.first?.paymentStatus == "refunded")
            #expect(try await store.adminOrders("payment_status=paid", token: owner).total == 2)

            // Days in UTC, both bounds included.
            let placedAt = Dictionary(uniqueKeysWithValues: all.orders.map { ($0.id, $0.createdAt) })
            let guestDay = try utcDay(try #require(placedAt[guest.id]))
            let proDay = try utcDay(try #require(placedAt[pro.id]))
            let laterDay = try utcDay(try #require(placedAt[free.id]))
            #expect(
                try await store.adminOrders("from=\(guestDay)&to=\(guestDay)", token: owner).orders.map(\.id) == [
                    guest.id
                ])
            #expect(
                try await store.adminOrders("from=\(try dayAfter(guestDay))", token: owner).orders.map(\.id) == [
                    free.id, pro.id,
                ])
            #expect(try await store.adminOrders("to=\(guestDay)", token: owner).orders.map(\.id) == [guest.id])
            #expect(try await store.adminOrders("from=\(guestDay)&to=\(laterDay)", token: owner).total == 3)
            #expect(try await store.adminOrders("from=\(laterDay)&to=\(guestDay)", token: owner).total == 0)
            #expect(
                try await store.adminOrders("from=\(proDay)&fulfilment_status=packed&payment_status=paid", token: owner)
                    .orders.map(\.id) == [pro.id])

            // Search: an id whole, its start in any case, part of an email in any case.
            #expect(try await store.adminOrders("q=\(pro.id)", token: owner).orders.map(\.id) == [pro.id])
            let start = String(free.id.prefix(9))
            #expect(
                try await store.adminOrders("q=\(start.uppercased())", token: owner).orders.contains {
                    $0.id == free.id
                })
            #expect(
                try await store.adminOrders("q=\(start)", token: owner).orders.allSatisfy { $0.id.hasPrefix(start) })
            #expect(try await store.adminOrders("q=PRO%40online", token: owner).orders.map(\.id) == [pro.id])
            #expect(
                try await store.adminOrders("q=onlinestore.test", token: owner).orders.map(\.id) == [free.id, pro.id])
            #expect(try await store.adminOrders("q=%20free%20", token: owner).orders.map(\.id) == [free.id])
            #expect(try await store.adminOrders("q=ord_", token: owner).total == 0)
            #expect(try await store.adminOrders("q=nobody%25", token: owner).total == 0)
            #expect(try await store.adminOrders("q=_", token: owner).total == 0)
            // Empty values are "any", as a form sends them.
            #expect(
                try await store.adminOrders("q=&fulfilment_status=&payment_status=&from=&to=", token: owner).total == 3)

            // Values the store does not know are refused, naming the parameter.
            for (query, parameter) in [
                ("fulfilment_status=lost", "fulfilment_status"), ("payment_status=owed", "payment_status"),
                ("from=2025-13-01", "from"), ("from=2025-02-29", "from"), ("to=yesterday", "to"),
                ("limit=0", "limit"), ("limit=201", "limit"), ("limit=", "limit"), ("offset=", "offset"),
                ("offset=-1", "offset"), ("limit=1.5", "limit"),
                ("q=\(String(repeating: "a", count: 201))", "q"), ("q=a%00b", "q"),
            ] {
                let reply = try await store.send("GET", "/api/admin/orders?" + query, token: owner)
                #expect(reply.status == 400, "\(query)")
                #expect(reply.errorType == "invalid_query", "\(query)")
                #expect(try reply.decode(ErrorBody.self).error.field == parameter, "\(query)")
            }
            #expect(try await store.adminOrders("limit=200&from=2024-02-29", token: owner).total == 3)
        }
    }

    @Test("a day is a date of the proleptic Gregorian calendar in UTC, written 2025-03-12")
    func days() {
        for (day, seconds) in [
            ("1970-01-01", 0), ("2000-03-01", 951_868_800), ("1582-10-10", -12_219_724_800),
            ("0001-01-01", -62_135_596_800), ("9999-12-31", 253_402_214_400), ("2024-02-29", 1_709_164_800),
            ("1900-03-01", -2_203_891_200),
        ] as [(String, TimeInterval)] {
            #expect(OrderManagement.startOfDay(day) == Date(timeIntervalSince1970: seconds), "\(day)")
        }
        for day in [
            "0000-01-01", "2023-02-29", "1900-02-29", "2025-04-31", "2025-00-10", "2025-13-01", "2025-1-01",
            "25-01-01", "2025-01-01T00:00:00Z", "2025/01/01", "２０２５-01-01", "", "2025-01-0a",
        ] {
            #expect(OrderManagement.startOfDay(day) == nil, "\(day)")
        }
    }

    @Test(
        "an order's page: its lines and amounts as charged, the payment, the customer, and a timeline opened by the payment",
        arguments: Backend.allCases)
    func detail(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let shopper = try await store.workedCaseShopper()
            let guestOrder = try await store.placeOrder([], token: shopper)
            let proOrder = try await store.placeOrder(
                [(5, 2)], token: try await store.customerToken("pro@onlinestore.test", "pro-demo-password"))
            let owner = try await store.ownerToken()

            let reply = try await store.send(AdminEndpoints.order, guestOrder.id, token: owner)
            #expect(reply.status == 200)
            #expect(reply.header("Cache-Control") == "no-store")
            let order = try reply.decode(AdminOrderBody.self)
            #expect(order.id == guestOrder.id)
            #expect(order.lines == guestOrder.lines)
            #expect(order.lines.map(\.productID) == [1, 2, 3])
            #expect(order.lines.map(\.quantity) == [1, 1, 2])
            #expect(order.subtotal == eur(50_00))
            #expect(order.discount == eur(5_00))
            #expect(order.promotion == "RUN10")
            #expect(order.shipping == guestOrder.shipping)
            #expect(order.fee == guestOrder.fee)
            #expect(order.total == guestOrder.total)
            #expect(order.paymentMethod == PaymentMethodBody(type: "card", brand: "visa"))
            #expect(order.paymentStatus == "paid")
            #expect(order.fulfilmentStatus == "unfulfilled")
            #expect(order.trackingNumber == nil)
            #expect(order.customer == nil)
            #expect(order.refunds.isEmpty)
            #expect(try StoreJSON.timestampStyle.parse(order.createdAt) == guestOrder.createdAt)
            #expect(
                order.timeline == [
                    OrderTimelineEntryBody(at: order.createdAt, kind: "paid", actor: "customer", detail: nil)
                ])
            // The JSON has no nulls: an absent value is left out.
            #expect(!reply.text.contains("null"))
            #expect(reply.text.contains(#""refunds":[]"#))
            for key in [
                #""fulfilment_status":"unfulfilled""#, #""payment_status":"paid""#,
                #""payment_method":{"brand":"visa","type":"card"}"#, #""created_at":""#, #""line_total":"#,
            ] {
                #expect(reply.text.contains(key), "\(key)")
            }

            let pro = try await store.send(AdminEndpoints.order, proOrder.id, token: owner).decode(AdminOrderBody.self)
            let buyer = try #require(pro.customer)
            #expect(buyer.email == "pro@onlinestore.test")
            #expect(buyer.name?.isEmpty == false)
            #expect(buyer.id > 0)

            // An id no order has, and one that cannot be an id.
            for id in ["ord_" + String(repeating: "0", count: 26), "ord_nope", "1"] {
                let missing = try await store.send(AdminEndpoints.order, id, token: owner)
                #expect(missing.status == 404, "\(id)")
                #expect(missing.errorType == "not_found")
            }
        }
    }

    @Test(
        "pack, ship with a tracking number, deliver: each step one timeline line and one audit line",
        arguments: Backend.allCases)
    func fulfilment(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let placed = try await store.placeOrder([(2, 1)], token: try await store.newSession())
            let email = try await store.addStaff(role: .orders)
            let packer = try await store.staffToken(email, "a long password")

            // A tracking number is read only for shipping.
            let packed = try await store.moveOrder(
                placed.id, to: "packed", tracking: "NOT-YET", expected: "unfulfilled", token: packer)
            #expect(packed.status == 200)
            #expect(packed.header("Cache-Control") == "no-store")
            let afterPacking = try packed.decode(AdminOrderBody.self)
            #expect(afterPacking.fulfilmentStatus == "packed")
            #expect(afterPacking.trackingNumber == nil)
            #expect(afterPacking.timeline.map(\.kind) == ["paid", "packed"])
            #expect(afterPacking.timeline.last?.actor == email)
            #expect(try await store.orderTrail(placed.id) == (2, 1))

            let shipped = try await store.moveOrder(
                placed.id, to: "shipped", tracking: " JD0002-1234 5678 ", token: packer)
            #expect(shipped.status == 200)
            let afterShipping = try shipped.decode(AdminOrderBody.self)
            #expect(afterShipping.fulfilmentStatus == "shipped")
            #expect(afterShipping.trackingNumber == "JD0002-1234 5678")
            #expect(afterShipping.timeline.map(\.kind) == ["paid", "packed", "shipped"])
            #expect(afterShipping.timeline.last?.detail == "JD0002-1234 5678")
            #expect(try await store.orderTrail(placed.id) == (3, 2))

            let delivered = try await store.moveOrder(placed.id, to: "delivered", expected: "shipped", token: packer)
            let final = try delivered.decode(AdminOrderBody.self)
            #expect(final.fulfilmentStatus == "delivered")
            #expect(final.trackingNumber == "JD0002-1234 5678")
            #expect(final.timeline.map(\.kind) == ["paid", "packed", "shipped", "delivered"])
            #expect(final.timeline.dropFirst().allSatisfy { $0.actor == email })
            #expect(try await store.orderTrail(placed.id) == (4, 3))
            #expect(
                try await store.send(AdminEndpoints.order, placed.id, token: packer).decode(AdminOrderBody.self)
                    == final)

            let audit = try await store.database.audit.entries().filter { $0.action == "order.fulfilment" }
            #expect(audit.count == 3)
            #expect(audit.allSatisfy { $0.subject == "order:\(placed.id)" && $0.actor == email })
            #expect(
                audit.map(\.before) == [
                    #"{"fulfilment_status":"shipped","tracking_number":"JD0002-1234 5678"}"#,
                    #"{"fulfilment_status":"packed"}"#,
                    #"{"fulfilment_status":"unfulfilled"}"#,
                ])
            #expect(
                audit.map(\.after) == [
                    #"{"fulfilment_status":"delivered","tracking_number":"JD0002-1234 5678"}"#,
                    #"{"fulfilment_status":"shipped","tracking_number":"JD0002-1234 5678"}"#,
                    #"{"fulfilment_status":"packed"}"#,
                ])
        }
    }

    @Test(
        "every step the order's state does not allow, or from a state it has left, is 409 with its state; nothing written",
        arguments: Backend.allCases)
    func refusedSteps(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let placed = try await store.placeOrder([(6, 1)], token: try await store.newSession())
            let owner = try await store.ownerToken()
            let steps: [(status: String, tracking: String?)] = [
                ("unfulfilled", nil), ("packed", nil), ("shipped", "TRACK-1"), ("delivered", nil),
            ]
            let path: [String: String] = ["unfulfilled": "packed", "packed": "shipped", "shipped": "delivered"]
            var state = "unfulfilled"
            while true {
                let trail = try await store.orderTrail(placed.id)
                for step in steps where step.status != path[state] {
                    let refused = try await store.moveOrder(
                        placed.id, to: step.status, tracking: step.tracking, token: owner)
                    #expect(refused.status == 409, "\(state) → \(step.status)")
                    let body = try refused.decode(InvalidTransitionBody.self)
                    #expect(body.error.type == "invalid_transition")
                    #expect(body.fulfilmentStatus == state, "\(state) → \(step.status)")
                    #expect(refused.text.contains(#""fulfilment_status":"\#(state)""#))
                    // Naming the state it is in changes nothing.
                    let named = try await store.moveOrder(
                        placed.id, to: step.status, tracking: step.tracking, expected: state, token: owner)
                    #expect(named.status == 409)
                }
                // A step chosen from a state the order has left.
                for stale in ["unfulfilled", "packed", "shipped", "delivered", "cancelled"] where stale != state {
                    let target = path[stale] ?? "delivered"
                    let refused = try await store.moveOrder(
                        placed.id, to: target, tracking: target == "shipped" ? "TRACK-1" : nil, expected: stale,
                        token: owner)
                    #expect(refused.status == 409, "from \(stale) while \(state)")
                    #expect(try refused.decode(InvalidTransitionBody.self).fulfilmentStatus == state)
                    #expect(try refused.decode(InvalidTransitionBody.self).error.message.contains("meanwhile"))
                }
                #expect(try await store.orderTrail(placed.id) == trail, "while \(state)")
                let order = try await store.send(AdminEndpoints.order, placed.id, token: owner)
                    .decode(AdminOrderBody.self)
                #expect(order.fulfilmentStatus == state)
                guard let next = path[state] else { break }
                let moved = try await store.moveOrder(
                    placed.id, to: next, tracking: next == "shipped" ? "TRACK-1" : nil, token: owner)
                #expect(moved.status == 200)
                state = next
            }
            #expect(state == "delivered")
            #expect(try await store.orderTrail(placed.id) == (4, 3))

            // A cancelled order (cancelling is the refunds' work) moves no further.
            let other = try await store.placeOrder([(6, 1)], token: try await store.newSession())
            try await store.database.sql.write { connection in
                try connection.execute("UPDATE orders SET fulfilment_status = 'cancelled' WHERE id = \(other.id)")
            }
            for step in steps {
                let refused = try await store.moveOrder(
                    other.id, to: step.status, tracking: step.tracking, token: owner)
                #expect(refused.status == 409)
                #expect(try refused.decode(InvalidTransitionBody.self).fulfilmentStatus == "cancelled")
            }
            #expect(try await store.orderTrail(other.id) == (1, 0))
        }
    }

    @Test(
        "ten people marking one order packed at once: one succeeds, the others are told it is packed",
        arguments: Backend.allCases)
    func simultaneousSteps(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let placed = try await store.placeOrder([(7, 1)], token: try await store.newSession())
            var tokens: [String] = [try await store.ownerToken()]
            let email = try await store.addStaff(role: .orders)
            for _ in 1..<10 { tokens.append(try await store.staffToken(email, "a long password")) }
            func race(
                _ status: String, tracking: String? = nil, expected: String?
            ) async throws -> [TestStore.Reply] {
                try await withThrowingTaskGroup(of: TestStore.Reply.self) { group in
                    for token in tokens {
                        group.addTask {
                            try await store.moveOrder(
                                placed.id, to: status, tracking: tracking, expected: expected, token: token)
                        }
                    }
                    var replies: [TestStore.Reply] = []
                    for try await reply in group { replies.append(reply) }
                    return replies
                }
            }
            let packing = try await race("packed", expected: "unfulfilled")
            #expect(packing.map(\.status).sorted() == [200] + Array(repeating: 409, count: 9))
            for loser in packing where loser.status == 409 {
                #expect(try loser.decode(InvalidTransitionBody.self).fulfilmentStatus == "packed")
            }
            #expect(try await store.orderTrail(placed.id) == (2, 1))

            // Without naming the state seen: still once.
            let shipping = try await race("shipped", tracking: "PARCEL-7", expected: nil)
            #expect(shipping.map(\.status).sorted() == [200] + Array(repeating: 409, count: 9))
            for loser in shipping where loser.status == 409 {
                #expect(try loser.decode(InvalidTransitionBody.self).fulfilmentStatus == "shipped")
            }
            #expect(try await store.orderTrail(placed.id) == (3, 2))
            let order = try await store.send(AdminEndpoints.order, placed.id, token: tokens[0])
                .decode(AdminOrderBody.self)
            #expect(order.timeline.map(\.kind) == ["paid", "packed", "shipped"])
        }
    }

    @Test(
        "a tracking number is required to ship and must be one; cancelling is not a step; bad input writes nothing",
        arguments: Backend.allCases)
    func badInput(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let placed = try await store.placeOrder([(8, 1)], token: try await store.newSession())
            let owner = try await store.ownerToken()
            #expect(try await store.moveOrder(placed.id, to: "packed", token: owner).status == 200)
            for tracking in [
                nil, "", "   ", "<script>alert(1)</script>", "4242 4242 4242 4242", "4242424242424242",
                String(repeating: "A", count: 65), "TRACK\n1", "TRÄCK-1", "\tTRACK-1", "TRACK-1\u{A0}",
            ] as [String?] {
                let reply = try await store.moveOrder(placed.id, to: "shipped", tracking: tracking, token: owner)
                #expect(reply.status == 422, "\(String(describing: tracking))")
                #expect(!reply.text.contains("<script>"))
                #expect(!reply.text.contains("4242"))
                let error = try reply.decode(ErrorBody.self).error
                if error.type != "card_number_rejected" {
                    #expect(error.type == "invalid_tracking_number", "\(String(describing: tracking))")
                    #expect(error.field == "tracking_number")
                }
            }
            let cancel = try await store.moveOrder(placed.id, to: "cancelled", token: owner)
            #expect(cancel.status == 422)
            #expect(cancel.errorType == "invalid_fulfilment_status")
            #expect(try cancel.decode(ErrorBody.self).error.message.contains("use cancel"))
            for (status, expected, field) in [("lost", nil, "status"), ("packed", "gone", "expected_status")]
                as [(String, String?, String)]
            {
                let reply = try await store.moveOrder(placed.id, to: status, expected: expected, token: owner)
                #expect(reply.status == 422)
                #expect(reply.errorType == "invalid_fulfilment_status")
                #expect(try reply.decode(ErrorBody.self).error.field == field)
            }
            #expect(
                try await store.send("POST", AdminEndpoints.moveOrder.path(placed.id), token: owner, json: "{").status
                    == 400)
            #expect(
                try await store.send("POST", AdminEndpoints.moveOrder.path(placed.id), token: owner, json: "{}").status
                    == 422)
            // An order no one has: 404 whatever the body.
            let nobody = "ord_" + String(repeating: "z", count: 26)
            #expect(try await store.moveOrder(nobody, to: "shipped", token: owner).status == 404)
            #expect(try await store.moveOrder("ord_x", to: "packed", token: owner).status == 404)
            // Nothing was written by any of it.
            #expect(try await store.orderTrail(placed.id) == (2, 1))
            let order = try await store.send(AdminEndpoints.order, placed.id, token: owner).decode(AdminOrderBody.self)
            #expect(order.fulfilmentStatus == "packed")
            #expect(order.trackingNumber == nil)
        }
    }

    @Test(
        "orders are for staff who may manage them: 401 without a staff session, 403 for the catalog role",
        arguments: Backend.allCases)
    func access(backend: Backend) async throws {
        try await TestStore.with(backend) { store in
            let customer = try await store.customerToken("pro@onlinestore.test", "pro-demo-password")
            let placed = try await store.placeOrder([(9, 1)], token: customer)
            let catalog = try await store.staffToken(try await store.addStaff(role: .catalog), "a long password")
            let orders = try await store.staffToken(try await store.addStaff(role: .orders), "a long password")
            func calls(_ token: String?) async throws -> [TestStore.Reply] {
                [
                    try await store.send(AdminEndpoints.orders, token: token),
                    try await store.send(AdminEndpoints.order, placed.id, token: token),
                    try await store.moveOrder(placed.id, to: "packed", token: token),
                ]
            }
            for reply in try await calls(nil) + (try await calls(customer)) {
                #expect(reply.status == 401)
                #expect(reply.errorType == "unauthorized")
            }
            for reply in try await calls(catalog) {
                #expect(reply.status == 403)
                #expect(reply.errorType == "forbidden")
            }
            #expect(try await store.orderTrail(placed.id) == (1, 0))
            #expect(try await calls(orders).map(\.status) == [200, 200, 200])
            // The shopper sees their order as before, not the back office's view of it.
            let mine = try await store.send(Endpoints.order, placed.id, token: customer)
            #expect(mine.status == 200)
            #expect(!mine.text.contains("fulfilment_status"))
        }
    }
}
