import HTML

extension StorePages {
    /// A product's page at `/product/{id}`: image, price, rating, stock, description, and
    /// **Add to basket** with a **Quantity** field.
    public static func product(_ page: ProductPage, context: PageContext) -> HTMLDocument {
        let product = page.product
        let category = CatalogQuery(category: product.category)
        return PageLayout.document(
            title: product.title, context: context, section: .catalog,
            .nav(
                [.class("breadcrumb"), .ariaLabel("Breadcrumb")],
                .a([.href(StorePaths.catalog)], "Products"),
                .text(" › "),
                .a([.href(category.path)], context.displayName(product.category))),
            .div(
                [.class("product-detail")],
                ProductFacts.image(product.imagePath, title: product.title, size: 320),
                .div(
                    [.class("product-info")],
                    .h1(product.title),
                    ProductFacts.price(product, context: context),
                    ProductFacts.rating(product),
                    ProductFacts.stock(product),
                    .p([.class("description")], page.description),
                    addForm(product, context: context),
                    page.quantityInBasket > 0
                        ? .p(
                            [.class("in-basket")],
                            .text("\(page.quantityInBasket) in your basket · "),
                            .a([.href(StorePaths.basket)], "View basket"))
                        : .empty)))
    }

    private static func addForm(_ product: ProductSummary, context: PageContext) -> Node {
        guard product.stock.isAvailable else {
            return .p([.class("hint")], "This product is sold out. Please check back soon.")
        }
        return Forms.post(
            StorePaths.basketItems, context: context, class: "add-form add-form-detail",
            Forms.hidden(FormFields.productID, String(product.id.rawValue)),
            Forms.hidden(FormFields.returnTo, StorePaths.product(product.id)),
            Forms.quantityField(id: "quantity", value: 1),
            Forms.submit("Add to basket", style: .primary))
    }
}
