import CheckoutKit
import StoreAPI
import StoreClient
import StoreFeatures
import Testing

/// docs/BEHAVIOUR.md §10, the product list: loading once, retry, and the add-to-basket counters.
@MainActor
@Suite struct ProductListModelTests {
    let catalog = FakeCatalogClient()
    let basket = FakeBasketClient()

    /// A model whose products load and whose basket starts as `server`.
    func loadedModel(_ server: ServerBasket = ServerBasket()) async -> ProductListModel {
        let model = ProductListModel(catalog: catalog, basket: basket)
        catalog.onProducts = { .success(Catalog.all) }
        basket.onBasket = { .success(server.body) }
        await model.task()
        return model
    }

    @Test("not started, then loading, then loaded")
    func loads() async {
        let model = ProductListModel(catalog: catalog, basket: basket)
        #expect(model.state == .notStarted)
        catalog.onProducts = {
            #expect(model.state == .loading)
            return .success(Catalog.all)
        }
        basket.onBasket = { .success(ServerBasket().body) }
        await model.task()
        #expect(model.state == .loaded(Catalog.all))
    }

    @Test("the list loads once: another load while loading or loaded does nothing")
    func loadsOnce() async {
        let model = ProductListModel(catalog: catalog, basket: basket)
        catalog.onProducts = {
            await model.task()  // the screen appears again while loading
            return .success(Catalog.all)
        }
        basket.onBasket = { .success(ServerBasket().body) }
        await model.task()
        await model.task()  // and once loaded
        #expect(catalog.productsCalls == 1)
        #expect(model.state == .loaded(Catalog.all))
    }

    @Test("a failed load shows the message; Try again loads")
    func failedLoadRetries() async {
        let model = ProductListModel(catalog: catalog, basket: basket)
        catalog.onProducts = { .failure(.unavailable) }
        await model.task()
        #expect(model.state == .failed(message: StoreClientError.unavailable.message))

        catalog.onProducts = { .success(Catalog.all) }
        basket.onBasket = { .success(ServerBasket().body) }
        await model.tryAgainButtonTapped()
        #expect(model.state == .loaded(Catalog.all))
    }

    @Test("the counters start from the basket as it is")
    func countersStartFromTheBasket() async {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 2)]))
        #expect(model.count(of: Catalog.cap) == 2)
        #expect(model.count(of: Catalog.socks) == 0)
    }

    @Test("the first tap adds 1 to the basket")
    func firstTapAddsOne() async {
        let model = await loadedModel()
        var server = ServerBasket()
        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        await model.addButtonTapped(product: Catalog.cap)
        #expect(model.count(of: Catalog.cap) == 1)
        #expect(basket.changes == ["set 2 ×1"])
    }

    @Test("+ stops at 10: the button is disabled and a tap sends nothing")
    func plusStopsAtTen() async {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 9)]))
        var server = ServerBasket([(Catalog.cap, 9)])
        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        await model.plusButtonTapped(product: Catalog.cap)
        #expect(model.count(of: Catalog.cap) == 10)
        #expect(!model.canIncrement(Catalog.cap))
        await model.plusButtonTapped(product: Catalog.cap)
        #expect(model.count(of: Catalog.cap) == 10)
        #expect(basket.changes == ["set 2 ×10"])
    }

    @Test("− to 0 removes the line; − at 0 stays 0 and sends nothing")
    func minusStopsAtZero() async {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 1)]))
        basket.onRemoveLine = { _ in .success(ServerBasket().body) }
        await model.minusButtonTapped(product: Catalog.cap)
        #expect(model.count(of: Catalog.cap) == 0)
        #expect(!model.canDecrement(Catalog.cap))
        await model.minusButtonTapped(product: Catalog.cap)
        #expect(model.count(of: Catalog.cap) == 0)
        #expect(basket.changes == ["remove 2"])
    }

    @Test("each change is sent to the basket: + and − between the bounds set the quantity")
    func eachChangeIsSent() async {
        let model = await loadedModel()
        var server = ServerBasket()
        basket.onSetQuantity = { quantity, id in
            server.set(quantity, of: id)
            return .success(server.body)
        }
        await model.addButtonTapped(product: Catalog.socks)
        await model.plusButtonTapped(product: Catalog.socks)
        await model.plusButtonTapped(product: Catalog.socks)
        await model.minusButtonTapped(product: Catalog.socks)
        #expect(model.count(of: Catalog.socks) == 2)
        #expect(basket.changes == ["set 3 ×1", "set 3 ×2", "set 3 ×3", "set 3 ×2"])
    }

    @Test("a refused change puts the counter back and says why")
    func refusedChange() async {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 3)]))
        basket.onSetQuantity = { _, _ in .failure(.outOfStock(message: "Only 3 left in stock.")) }
        await model.plusButtonTapped(product: Catalog.cap)
        #expect(model.count(of: Catalog.cap) == 3)
        #expect(model.alert == .basketChangeFailed(message: "Only 3 left in stock."))
    }

    @Test("the counters follow the basket; an emptied basket resets them all")
    func countersFollowTheBasket() async {
        let model = await loadedModel(ServerBasket([(Catalog.cap, 2), (Catalog.socks, 4)]))
        model.basketChanged(ServerBasket().body)
        #expect(model.counts.isEmpty)
        #expect(model.count(of: Catalog.socks) == 0)
    }
}
