import CheckoutKit
import StoreAPI
import StoreServices

extension BasketService {
    /// The basket as the API shows it, with each payment method's fee and amount due.
    func body(for shopper: Shopper) async throws -> BasketBody {
        let basket = try await priced(shopper)
        var body = try BasketBody(
            lines: basket.lines, price: basket.price, promotion: basket.promotion,
            quotes: try configuration.fees.quotes(total: basket.price.total), locale: configuration.locale)
        if let notice = basket.unusableCodeNotice { body.promoNotice = notice }
        return body
    }
}
