import CheckoutKit
import HTML

extension AdminPages {
    /// The catalog import at `/admin/products/import`: the upload form (**CSV file**, **Preview**)
    /// with the expected columns and a link to **Export**; the preview (new, changed and unchanged
    /// products, every bad row by its line) with **Import** and Cancel, or, with problems, only
    /// what to fix; and what was imported.
    public static func importProducts(_ page: AdminImportPage, context: AdminContext) -> HTMLDocument {
        let content: Node
        let heading: String
        var title: String?
        switch page.state {
        case .upload(let fileError):
            heading = "Import products"
            if fileError != nil { title = "Import products (has problems)" }
            content = .fragment(
                AdminForms.errorSummary(id: "problems", fileError.map { [("csv-file", $0)] } ?? []),
                uploadForm(fileError: fileError, context: context),
                formatHelp())
        case .preview(let preview):
            heading = "Import preview"
            content = previewView(preview, context: context)
        case .imported(let newCount, let changedCount):
            heading = "Import done"
            content = .fragment(
                .div(
                    [.class("notice notice-success")],
                    .p(
                        [],
                        .strong("Imported: \(context.number(newCount)) new, \(context.number(changedCount)) changed"))),
                .p(
                    [.class("actions")],
                    .a([.href(AdminPaths.products)], "See the products"),
                    .text(" · "),
                    .a([.href(AdminPaths.importProducts)], "Import another file")))
        }
        return AdminLayout.document(
            title: title ?? heading, context: context, section: .products,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.products)], "Products")),
            .h1(heading),
            content)
    }

    private static func uploadForm(fileError: String?, context: AdminContext) -> Node {
        .section(
            [.class("panel"), .ariaLabelledBy("upload-title")],
            .h2([.id("upload-title")], "Upload a file"),
            AdminForms.post(
                AdminPaths.importProducts, context: context, class: "upload-form", multipart: true,
                AdminForms.file(
                    AdminForms.Field(
                        id: "csv-file", name: AdminFormFields.file, label: "CSV file",
                        hint: "Nothing changes until you have seen the preview and chosen Import.", error: fileError,
                        isRequired: true),
                    accept: ".csv,text/csv"),
                AdminForms.submit("Preview", style: .primary)),
            .p(
                [],
                .text("To start from the catalog as it is: "),
                .a([.href(AdminPaths.exportProducts), .class("download")], "Export"),
                .text(" (CSV). An exported file imported again changes nothing.")))
    }

    private static func formatHelp() -> Node {
        .section(
            [.class("panel format-help"), .ariaLabelledBy("format-title")],
            .h2([.id("format-title")], "The file"),
            .ul(
                [],
                .li(
                    [],
                    .text("UTF-8 text with a header row naming the columns, in this order: "),
                    .code([], AdminImportPage.columns.joined(separator: ","))),
                .li(
                    [], .code([], "sku"), .text(" finds the product: a new SKU adds a product, a known one changes it.")
                ),
                .li(
                    [], .code([], "price"), .text(" is in the shop's currency, written like "), .code([], "12.50"),
                    .text(".")),
                .li(
                    [], .code([], "stock"),
                    .text(" is the count on the shelf; a difference becomes a stock adjustment with reason "),
                    .em("counted"), .text(".")),
                .li(
                    [], .code([], "active"), .text(" is "), .code([], "true"), .text(" or "), .code([], "false"),
                    .text(".")),
                .li("A file with any bad row imports nothing; the preview lists every problem by its line.")))
    }

    private static func previewView(_ preview: AdminImportPage.Preview, context: AdminContext) -> Node {
        let counts = Node.dl(
            [.class("figure-list")],
            .div(
                [.class("figure")], .dt("New"),
                .dd([.class("figure-value")], .text(context.number(preview.newProducts.count)))),
            .div(
                [.class("figure")], .dt("Changed"),
                .dd([.class("figure-value")], .text(context.number(preview.changedProducts.count)))),
            .div(
                [.class("figure")], .dt("Unchanged"),
                .dd([.class("figure-value")], .text(context.number(preview.unchangedCount)))),
            .div(
                [.class("figure")], .dt("Problems"),
                .dd([.class("figure-value")], .text(context.number(preview.problems.count)))))
        let decision: Node
        if preview.problems.isEmpty {
            decision = AdminForms.post(
                AdminPaths.importProducts, context: context, class: "panel import-form",
                AdminForms.hidden(AdminFormFields.upload, preview.uploadID),
                .p("Import applies every change above at once, or none if anything fails."),
                .div(
                    [.class("button-row")],
                    AdminForms.submit("Import", style: .primary),
                    .a([.href(AdminPaths.importProducts), .class("button")], "Cancel")))
        } else {
            decision = .section(
                [.class("notice notice-error"), .ariaLabelledBy("file-problems-title")],
                .h2(
                    [.id("file-problems-title")],
                    preview.problems.count == 1
                        ? "1 problem in the file" : "\(preview.problems.count) problems in the file"),
                .ul(
                    [.class("problem-list")],
                    .fragment(preview.problems.map { .li("Line \($0.line): \($0.message)") })),
                .p([], .strong("Fix these and upload the file again."), .text(" Nothing was imported.")),
                uploadAgain(context: context))
        }
        return .fragment(
            .section(
                [.class("panel figures"), .ariaLabelledBy("summary-title")],
                .h2(
                    [.id("summary-title")],
                    .text("What "),
                    preview.fileName.map { .code([], $0) } ?? .text("the file"),
                    .text(" would do")),
                counts),
            preview.problems.isEmpty ? .empty : decision,
            newProductsTable(preview.newProducts, context: context),
            changedProductsTable(preview.changedProducts),
            preview.problems.isEmpty ? decision : .empty)
    }

    private static func uploadAgain(context: AdminContext) -> Node {
        AdminForms.post(
            AdminPaths.importProducts, context: context, class: "upload-form", multipart: true,
            AdminForms.file(
                AdminForms.Field(id: "csv-file", name: AdminFormFields.file, label: "CSV file", isRequired: true),
                accept: ".csv,text/csv"),
            AdminForms.submit("Preview", style: .primary))
    }

    private static func newProductsTable(_ products: [AdminImportPage.NewProduct], context: AdminContext) -> Node {
        guard !products.isEmpty else { return .empty }
        return AdminTables.table(
            id: "new-products", caption: "New products",
            columns: [
                .init("SKU"), .init("Title"), .init("Category"), .init("Price", number: true),
                .init("Stock", number: true), .init("Status"),
            ],
            rows: products.map { product in
                AdminTables.Row(
                    [],
                    .heading(.span([.class("sku")], product.sku)),
                    .init(product.title),
                    .init(product.category),
                    .init(context.money(product.price)),
                    .init(context.number(product.stock)),
                    .init(AdminTables.badge(active: product.active)))
            })
    }

    private static func changedProductsTable(_ products: [AdminImportPage.ChangedProduct]) -> Node {
        guard !products.isEmpty else { return .empty }
        return AdminTables.table(
            id: "changed-products", caption: "Changed products",
            columns: [.init("SKU"), .init("Title"), .init("Changes")],
            rows: products.map { product in
                AdminTables.Row(
                    [],
                    .heading(.span([.class("sku")], product.sku)),
                    .init(product.title),
                    .init(
                        .ul(
                            [.class("changes")],
                            .fragment(
                                product.changes.map { change in
                                    .li(
                                        [],
                                        .strong(change.field),
                                        .text(": "),
                                        .span([.class("old-value")], change.old),
                                        .span([.class("arrow"), .ariaHidden(true)], " → "),
                                        .span([.class("visually-hidden")], " becomes "),
                                        .span([.class("new-value")], change.new))
                                }))))
            })
    }
}
