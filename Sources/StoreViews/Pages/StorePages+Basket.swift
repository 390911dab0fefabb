import CheckoutKit
import HTML

extension StorePages {
    /// The basket at `/basket`: each line with **Quantity** and **Update**, and **Remove**; the
    /// totals and the free-shipping hint; **Promo code** with **Apply** (and **Remove** for an
    /// applied code); **Checkout**. An empty basket says so and links back to the catalog.
    public static func basket(_ page: BasketPage, context: PageContext) -> HTMLDocument {
        guard !page.isEmpty else {
            return PageLayout.document(
                title: "Basket", context: context, section: .basket,
                .h1("Your basket"),
                .div(
                    [.class("empty-state")],
                    .p("Your basket is empty."),
                    .p([], Forms.buttonLink("Browse the catalog", href: StorePaths.catalog, style: .primary))))
        }
        return PageLayout.document(
            title: "Basket", context: context, section: .basket,
            .h1("Your basket"),
            .div(
                [.class("columns")],
                .ul(
                    [.class("basket-lines"), .ariaLabel("Items in your basket")],
                    .fragment(page.lines.map { line($0, context: context) })),
                .section(
                    [.class("summary"), .ariaLabelledBy("summary-title")],
                    .h2([.id("summary-title")], "Summary"),
                    TotalsTable.basket(page.totals, context: context),
                    shippingHint(page.totals, context: context),
                    promoCode(page.promoCode, context: context),
                    .form(
                        [.method(.get), .action(StorePaths.checkout), .class("checkout-form")],
                        Forms.submit("Checkout", style: .primary)))))
    }

    private static func line(_ line: BasketLineItem, context: PageContext) -> Node {
        let id = line.productID.rawValue
        let titleID = "line-\(id)-title"
        return .li(
            [.class("basket-line")],
            ProductFacts.image(line.imagePath, title: line.title, size: 80),
            .div(
                [.class("line-info")],
                .h2([.id(titleID), .class("line-title")], .a([.href(StorePaths.product(line.productID))], line.title)),
                .p([.class("unit-price")], "\(context.money(line.unitPrice)) each")),
            Forms.post(
                StorePaths.basketItem(line.productID), context: context, class: "quantity-form",
                Forms.quantityField(id: "quantity-\(id)", value: line.quantity),
                Forms.submit("Update", describedBy: titleID)),
            .p(
                [.class("line-total")],
                .span([.class("visually-hidden")], "Line total: "),
                .text(context.money(line.lineTotal))),
            Forms.post(
                StorePaths.removeBasketItem(line.productID), context: context, class: "remove-form",
                Forms.submit("Remove", style: .quiet, describedBy: titleID)))
    }

    /// "€28.10 more for free shipping", or why shipping is already free.
    private static func shippingHint(_ totals: BasketTotals, context: PageContext) -> Node {
        if let missing = totals.amountToFreeShipping {
            return .p([.class("hint free-shipping")], "\(context.money(missing)) more for free shipping")
        }
        if totals.isProMember {
            return .p([.class("hint free-shipping")], "Free shipping with your Pro membership")
        }
        return .empty
    }

    private static func promoCode(_ promo: BasketPage.PromoCode, context: PageContext) -> Node {
        let applied: Node =
            promo.applied.map { code in
                .div(
                    [.class("applied-code")],
                    .p([.id("applied-code")], .text("Code "), .strong(code), .text(" applied")),
                    Forms.post(
                        StorePaths.removePromotion, context: context, class: "remove-code-form",
                        Forms.submit("Remove", style: .quiet, describedBy: "applied-code")))
            } ?? .empty
        let notice: Node =
            promo.notice.map { .p([.class("notice notice-info")], $0.message(locale: context.locale)) } ?? .empty
        var fieldAttributes: [Attribute] = [
            .type("text"), .id("promo-code"), .name(FormFields.code), .value(promo.typed), .autocomplete("off"),
            .autocapitalize("characters"), .spellcheck(false), .maxlength(64),
        ]
        if promo.error != nil { fieldAttributes += [.ariaInvalid(true), .ariaDescribedBy("promo-error")] }
        return .div(
            [.class("promo")],
            applied,
            notice,
            Forms.post(
                StorePaths.promotion, context: context, class: "promo-form",
                .div(
                    [.class("field")],
                    .label([.for("promo-code")], "Promo code"),
                    .div([.class("input-row")], .input(fieldAttributes), Forms.submit("Apply")),
                    promo.error.map { .p([.id("promo-error"), .class("field-error")], $0) } ?? .empty)))
    }
}
