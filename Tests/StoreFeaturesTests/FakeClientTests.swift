import StoreClient
import StoreFeatures
import Testing

/// The fakes themselves: a call the test did not set up fails the test.
@MainActor
@Suite struct FakeClientTests {
    @Test("a call the test did not set up is recorded as a failure")
    func unexpectedCallFails() async {
        let catalog = FakeCatalogClient()
        let model = ProductListModel(catalog: catalog, basket: FakeBasketClient())
        await withKnownIssue {
            await model.task()
        }
        #expect(model.state.failureMessage != nil)
    }
}
