import HTML

/// The pieces that describe a product wherever it appears: its image, price, rating and stock.
enum ProductFacts {
    /// The product's image, with its title as the alternative text.
    static func image(_ path: String, title: String, size: Int = 160) -> Node {
        .img([.src(path), .alt(title), .width(size), .height(size), .class("product-image")])
    }

    static func price(_ product: ProductSummary, context: PageContext) -> Node {
        .p([.class("price")], context.money(product.price))
    }

    /// "★ 4.5 (212 reviews)", read out as "Rated 4.5 out of 5 (212 reviews)".
    static func rating(_ product: ProductSummary) -> Node {
        let rating = product.rating
        return .p(
            [.class("rating")],
            .span([.class("stars"), .ariaHidden(true)], "★"),
            .span([.class("visually-hidden")], "Rated "),
            .text(" " + rating.scoreText),
            .span([.class("visually-hidden")], " out of 5"),
            .text(" "),
            .span([.class("rating-count")], "(\(rating.count) \(rating.count == 1 ? "review" : "reviews"))"))
    }

    /// "Only 3 left" or "Sold out"; nothing when there is plenty.
    static func stock(_ product: ProductSummary) -> Node {
        switch product.stock {
        case .inStock: .empty
        case .low: .p([.class("stock stock-low")], product.stock.label ?? "")
        case .soldOut: .p([.class("stock stock-out")], product.stock.label ?? "")
        }
    }
}
