import CheckoutKit
import Observation
import StoreAPI
import StoreClient

/// The catalog screen: every product, each with its add-to-basket counter (docs/BEHAVIOUR.md §10).
///
/// A counter is the product's quantity in the basket. The first tap on Add puts one in the basket;
/// then − and + move it within 0…10, each change sent to the basket at once; reaching 0 removes
/// the line. The counters follow every basket the server answers with — including the emptied
/// basket after a payment, which sets them all back to 0.
@MainActor
@Observable
public final class ProductListModel {
    /// An alert the screen shows.
    public enum Alert: Hashable, Sendable {
        /// A change to the basket was refused or lost; the counter is back where it was.
        case basketChangeFailed(message: String)
    }

    /// The most units of one product a basket holds.
    public static let maximumCount = Quantity.range.upperBound

    public private(set) var state: LoadState<[ProductBody]> = .notStarted
    /// Units in the basket by product id; a product not listed has none.
    public private(set) var counts: [Int64: Int] = [:]
    public var alert: Alert?
    /// Called with every basket the server answered one of this screen's changes with.
    public var onBasketChanged: @MainActor (BasketBody) -> Void = { _ in }

    /// Products whose change is on its way; their buttons wait for it.
    private var changing: Set<Int64> = []
    private let catalog: any CatalogClient
    private let basket: any BasketClient

    public init(catalog: any CatalogClient, basket: any BasketClient) {
        self.catalog = catalog
        self.basket = basket
    }

    // MARK: What the screen shows

    /// The product's counter: its units in the basket.
    public func count(of product: ProductBody) -> Int {
        counts[product.id] ?? 0
    }

    /// Whether + (or Add) does something: below 10 and no change of this product on its way.
    public func canIncrement(_ product: ProductBody) -> Bool {
        count(of: product) < Self.maximumCount && !changing.contains(product.id)
    }

    /// Whether − does something: above 0 and no change of this product on its way.
    public func canDecrement(_ product: ProductBody) -> Bool {
        count(of: product) > 0 && !changing.contains(product.id)
    }

    // MARK: What the person did

    /// The screen appeared: loads the products once (another call while loading or loaded does
    /// nothing), then the basket to set the counters.
    public func task() async {
        guard !state.isLoadingOrLoaded else { return }
        await load()
    }

    /// "Try again" after a failed load.
    public func tryAgainButtonTapped() async {
        guard case .failed = state else { return }
        await load()
    }

    /// The first tap: puts one unit in the basket (or one more, if some already are).
    public func addButtonTapped(product: ProductBody) async {
        await change(product, to: count(of: product) + 1)
    }

    /// + : one more unit, up to 10.
    public func plusButtonTapped(product: ProductBody) async {
        await change(product, to: count(of: product) + 1)
    }

    /// − : one fewer unit; at 0 the line leaves the basket, and − at 0 does nothing.
    public func minusButtonTapped(product: ProductBody) async {
        await change(product, to: count(of: product) - 1)
    }

    /// The basket changed elsewhere (the basket screen, a payment): the counters follow it, except
    /// for products whose own change is still on its way.
    public func basketChanged(_ basket: BasketBody) {
        var counts: [Int64: Int] = [:]
        for line in basket.items { counts[line.productID] = line.quantity }
        for id in changing { counts[id] = self.counts[id] }
        self.counts = counts
    }

    // MARK: Work

    private func load() async {
        state = .loading
        do throws(StoreClientError) {
            state = .loaded(try await catalog.products())
        } catch {
            state = .failed(message: error.message)
            return
        }
        // The counters start from the basket as it is (a login may have brought lines with it);
        // without it they start at 0 and follow the first change's answer.
        if let current = try? await basket.basket() { basketChanged(current) }
    }

    /// Shows `newCount` at once and sends it; on failure the counter goes back and an alert says why.
    private func change(_ product: ProductBody, to newCount: Int) async {
        let id = product.id
        let oldCount = count(of: product)
        guard (0...Self.maximumCount).contains(newCount), newCount != oldCount, !changing.contains(id) else { return }
        changing.insert(id)
        counts[id] = newCount == 0 ? nil : newCount
        do throws(StoreClientError) {
            let answer =
                newCount == 0
                ? try await basket.removeLine(productID: id)
                : try await basket.setQuantity(SetQuantityRequest(quantity: newCount), productID: id)
            changing.remove(id)
            basketChanged(answer)
            onBasketChanged(answer)
        } catch {
            changing.remove(id)
            counts[id] = oldCount == 0 ? nil : oldCount
            alert = .basketChangeFailed(message: error.message)
        }
    }
}
