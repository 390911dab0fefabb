// libFuzzer target: every JSON body a client may send (checkout, basket quantity, promo code,
// login, the Fake Store's login and carts) read with the store's own decoder. Whatever decodes
// encodes and decodes again to the same value and the same bytes; a checkout's payment method is
// refused whenever its token holds a card number, and kept as sent otherwise. No card number
// survives decoding: when the store's card-number scan lets a body through, no value decoded from
// it, written out again, holds one.
import CheckoutKit
import Foundation
import StoreAPI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBodies(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    let passes = CardNumberScan.scan(body: Array(body)) == .clean
    if let checkout = roundTrip(CheckoutRequest.self, body) {
        checkPaymentMethod(checkout)
        if passes { holdsNoCardNumber(checkout, body) }
    }
    if let quantity = roundTrip(SetQuantityRequest.self, body), passes { holdsNoCardNumber(quantity, body) }
    if let promotion = roundTrip(ApplyPromotionRequest.self, body), passes { holdsNoCardNumber(promotion, body) }
    roundTrip(LoginRequest.self, body)  // exempt: a password is never kept
    sameBytes(FakeStoreLoginRequest.self, body)
    if let cart = sameBytes(FakeStoreCartRequest.self, body) {
        check(cart.products.count <= size, "no more lines than bytes")
        if passes { holdsNoCardNumber(cart, body) }
    }
    return 0
}

/// A value decoded from a body the scan let through holds no card number, as the store would write
/// it out (in a response, a log, a row).
func holdsNoCardNumber(_ value: some Encodable, _ body: Data) {
    let written = String(decoding: encode(value), as: UTF8.self)
    check(
        !CardNumberDetector.containsCardNumber(written),
        "a card number got through the scan: \(Array(body)) decodes to \(written)")
}

/// Decodes `body` as `T`; when it decodes, its encoding decodes to an equal value with equal bytes.
@discardableResult
func roundTrip<T: Codable & Hashable>(_ type: T.Type, _ body: Data) -> T? {
    guard let value = try? StoreJSON.decoder.decode(T.self, from: body) else { return nil }
    let encoded = encode(value)
    guard let again = try? StoreJSON.decoder.decode(T.self, from: encoded) else {
        fail("\(T.self) encoded to something it cannot read: \(String(decoding: encoded, as: UTF8.self))")
    }
    check(again == value, "\(T.self) changed in a round trip: \(value) became \(again)")
    check(encode(again) == encoded, "\(T.self) encodes the same value two ways")
    return value
}

/// For the types without equality: decode → encode → decode → encode gives the same bytes.
@discardableResult
func sameBytes<T: Codable>(_ type: T.Type, _ body: Data) -> T? {
    guard let value = try? StoreJSON.decoder.decode(T.self, from: body) else { return nil }
    let encoded = encode(value)
    guard let again = try? StoreJSON.decoder.decode(T.self, from: encoded) else {
        fail("\(T.self) encoded to something it cannot read: \(String(decoding: encoded, as: UTF8.self))")
    }
    check(encode(again) == encoded, "\(T.self) changed in a round trip")
    return value
}

func encode(_ value: some Encodable) -> Data {
    do {
        return try StoreJSON.encoder.encode(value)
    } catch {
        fail("a decoded value must encode: \(error)")
    }
}

/// A card number in the token is refused before anything else; an accepted card keeps its token.
func checkPaymentMethod(_ request: CheckoutRequest) {
    let token = request.paymentMethod.token
    let holdsCardNumber = token.map(CardNumberDetector.containsCardNumber) ?? false
    do {
        let method = try request.validatedPaymentMethod()
        check(!holdsCardNumber, "a token holding a card number was accepted")
        if case .card(let card) = method {
            check(card.rawValue == token, "the card token is kept as sent")
        }
        check(method.kind.rawValue == request.paymentMethod.type, "the method is the one named")
    } catch {
        check(!holdsCardNumber || error == .cardNumberRejected, "a card number is refused as such, not as \(error)")
    }
}
