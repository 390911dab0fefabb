import CheckoutKit
import StoreAPI

extension BasketBody {
    /// The basket as the server leaves it once paid: no lines, no code, nothing to pay.
    func emptiedAfterPayment() -> BasketBody {
        let zero = Money.zero(total.currency)
        return BasketBody(
            items: [], subtotal: zero, discount: zero, shipping: zero, total: zero, amountToFreeShipping: nil,
            promotion: nil, promoNotice: nil, tier: tier, paymentOptions: [])
    }
}
