import CheckoutKit
import StoreViews
import Testing

@Suite("Store paths") struct StorePathsTests {
    @Test("a product's page is /product/{id}, apart from the Fake-Store JSON route /products/{id}")
    func productPage() {
        #expect(StorePaths.product(ProductID(7)) == "/product/7")
        #expect(StorePaths.productPattern == "/product/{id}")
        #expect(!StorePaths.product(ProductID(7)).hasPrefix("/products/"))
    }
}
