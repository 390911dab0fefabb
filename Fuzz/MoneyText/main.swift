// libFuzzer target: text → Money → text → Money is stable, and a parsed amount has exactly its
// currency's minor digits.
import CheckoutKit
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMoneyText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for currency in [Currency.eur, .jpy, .kwd] {
        guard let money = try? Money(amount: text, currency: currency) else { continue }
        let written = money.amountText
        let fraction = written.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first ?? ""
        check(fraction.count == currency.minorUnitDigits, "\(written) has the wrong digits for \(currency)")
        let again = try? Money(amount: written, currency: currency)
        check(again == money, "\(text) → \(written) does not read back")
    }
    return 0
}
