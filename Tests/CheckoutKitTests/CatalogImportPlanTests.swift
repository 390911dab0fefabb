import CheckoutKit
import Testing

/// What a catalog file does to the catalog: new products by SKU, changes field by field, the rest
/// unchanged — and the same file against the same catalog always the same plan.
@Suite struct CatalogImportPlanTests {
    static func details(
        _ sku: String, title: String = "Mug", description: String = "", category: String = "Kitchen",
        price: Int64 = 4_00, active: Bool = true
    ) -> ProductDetails {
        ProductDetails(
            sku: sku, title: title, description: description, category: category,
            price: Money(minorUnits: price, currency: .eur), active: active)
    }

    static let catalog: [String: CatalogEntry] = [
        "MUG": CatalogEntry(id: ProductID(1), details: details("MUG"), stock: 5, version: 3),
        "CUP": CatalogEntry(id: ProductID(2), details: details("CUP", title: "Cup"), stock: 0, version: 1),
        "BOWL": CatalogEntry(id: ProductID(3), details: details("BOWL", title: "Bowl"), stock: 9, version: 7),
    ]

    @Test("a SKU the catalog lacks is new; one it has is changed field by field, or unchanged")
    func plan() {
        let plan = CatalogImportPlan(
            importing: [
                ImportedProduct(line: 2, details: Self.details("MUG"), stock: 5),
                ImportedProduct(
                    line: 3, details: Self.details("CUP", title: "Tea cup", price: 4_50, active: false), stock: 12),
                ImportedProduct(line: 4, details: Self.details("PLATE", title: "Plate"), stock: 3),
                ImportedProduct(line: 6, details: Self.details("BOWL", title: "Bowl"), stock: 8),
            ],
            into: Self.catalog)
        #expect(plan.unchanged == 1)
        #expect(plan.creations.map(\.line) == [4])
        #expect(plan.creations.first?.stock == 3)
        #expect(plan.updates.map(\.line) == [3, 6])
        let cup = plan.updates[0]
        #expect(cup.id == ProductID(2))
        #expect(cup.version == 1)
        #expect(cup.changesDetails)
        #expect(
            cup.changes == [
                FieldChange(field: .title, from: "Cup", to: "Tea cup"),
                FieldChange(field: .price, from: "4.00", to: "4.50"),
                FieldChange(field: .stock, from: "0", to: "12"),
                FieldChange(field: .active, from: "true", to: "false"),
            ])
        let bowl = plan.updates[1]
        #expect(!bowl.changesDetails)
        #expect((bowl.stockBefore, bowl.stock) == (9, 8))
        #expect(bowl.changes == [FieldChange(field: .stock, from: "9", to: "8")])
        #expect(plan.changesStock)
        #expect(!plan.isEmpty)
    }

    @Test("the same products as the catalog has them: nothing to do")
    func nothingToDo() {
        let products = Self.catalog.values.map {
            ImportedProduct(line: 2, details: $0.details, stock: $0.stock)
        }
        let plan = CatalogImportPlan(importing: products, into: Self.catalog)
        #expect(plan.isEmpty)
        #expect(plan.unchanged == 3)
        #expect(!plan.changesStock)
    }

    @Test("a new product without stock moves no stock; a description change is shown cut to 200 characters")
    func descriptionsAndStock() {
        let long = String(repeating: "a", count: 250)
        let plan = CatalogImportPlan(
            importing: [
                ImportedProduct(line: 2, details: Self.details("NEW"), stock: 0),
                ImportedProduct(line: 3, details: Self.details("MUG", description: long), stock: 5),
            ],
            into: Self.catalog)
        #expect(!plan.changesStock)
        #expect(
            plan.updates.first?.changes == [
                FieldChange(field: .description, from: "", to: String(repeating: "a", count: 200) + "…")
            ])
        // The change carries the whole description.
        #expect(plan.updates.first?.details.description == long)
    }
}
