import CheckoutKit
import HTML

extension AdminPages {
    /// Every product at `/admin/products`, active and archived: the search (a GET form), **New
    /// product**, the table (title, SKU, category, price, stock, status) and the pages.
    public static func products(_ page: AdminProductListPage, context: AdminContext) -> HTMLDocument {
        let search = page.search
        let table: Node =
            page.products.isEmpty
            ? AdminTables.empty(
                search.isEmpty ? "There are no products yet." : "No product matches “\(search)”.",
                search.isEmpty
                    ? .p([], AdminForms.buttonLink("New product", href: AdminPaths.newProduct, style: .primary))
                    : .p([], .a([.href(AdminPaths.products)], "Show every product")))
            : .fragment(
                AdminTables.count(page.paging.totalCount, "product", "products", context: context),
                AdminTables.table(
                    id: "products", caption: search.isEmpty ? "Products" : "Products matching “\(search)”",
                    columns: [
                        .init("Title"), .init("SKU"), .init("Category"), .init("Price", number: true),
                        .init("Stock", number: true), .init("Status"),
                    ],
                    rows: page.products.map { productRow($0, context: context) }),
                AdminTables.paging(page.paging, label: "Pages of products") {
                    AdminPaths.products(search: search, page: $0)
                })
        return AdminLayout.document(
            title: search.isEmpty ? "Products" : "Products matching “\(search)”", context: context,
            section: .products,
            .div(
                [.class("page-heading")],
                .h1("Products"),
                .p(
                    [.class("heading-actions")],
                    AdminForms.buttonLink("New product", href: AdminPaths.newProduct, style: .primary),
                    .a([.href(AdminPaths.importProducts), .class("button")], "Import"),
                    .a([.href(AdminPaths.exportProducts), .class("button")], "Export"))),
            AdminForms.search(
                AdminPaths.products, class: "panel search-form", label: "Products",
                AdminForms.input(
                    AdminForms.Field(
                        id: "search", name: AdminFormFields.search, label: "Search",
                        hint: "Title or SKU"),
                    type: "search", value: search, [.autocomplete("off"), .maxlength(200)]),
                AdminForms.submit("Search")),
            table)
    }

    private static func productRow(_ product: AdminProductListPage.Row, context: AdminContext) -> AdminTables.Row {
        AdminTables.Row(
            product.active ? [] : [.class("archived")],
            .heading(.a([.href(AdminPaths.product(product.id))], product.title)),
            .init(.span([.class("sku")], product.sku)),
            .init(product.category),
            .init(context.money(product.price)),
            .init(context.number(product.stock)),
            .init(AdminTables.badge(active: product.active)))
    }
}
