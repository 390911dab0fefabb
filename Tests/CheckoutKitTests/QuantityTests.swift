import CheckoutKit
import Testing

@Suite struct QuantityTests {
    @Test(arguments: [0, 11, -1, 100, Int.min, Int.max])
    func quantitiesOutsideOneToTenDoNotExist(value: Int) {
        #expect(Quantity(value) == nil)
    }

    @Test func quantitiesStepWithinTheirBounds() {
        #expect(Quantity.one.decremented == nil)
        #expect(Quantity.maximum.incremented == nil)
        #expect(quantity(4).incremented == quantity(5))
        #expect(quantity(4).decremented == quantity(3))
    }

    @Test func mergingAddsUpToTheMaximumAndSaysWhenItCapped() {
        #expect(quantity(3).merged(with: quantity(4)) == (quantity(7), false))
        #expect(quantity(5).merged(with: quantity(5)) == (quantity(10), false))
        #expect(quantity(6).merged(with: quantity(5)) == (Quantity.maximum, true))
        #expect(Quantity.maximum.merged(with: Quantity.maximum) == (Quantity.maximum, true))
        for a in Quantity.range {
            for b in Quantity.range {
                let merged = quantity(a).merged(with: quantity(b))
                #expect(merged.quantity.value == min(a + b, 10))
                #expect(merged.wasCapped == (a + b > 10))
            }
        }
    }
}
