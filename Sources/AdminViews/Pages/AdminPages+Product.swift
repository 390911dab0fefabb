import CheckoutKit
import HTML

extension AdminPages {
    /// The new-product form at `/admin/products/new`: **Title**, **Description**, **Category**,
    /// **Price**, **SKU**, **Active**, **Save**. Image and stock come once the product exists.
    public static func newProduct(_ page: AdminNewProductPage, context: AdminContext) -> HTMLDocument {
        AdminLayout.document(
            title: page.form.errors.isEmpty ? "New product" : "New product (has problems)", context: context,
            section: .products,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.products)], "Products")),
            .h1("New product"),
            AdminForms.errorSummary(id: "problems", productProblems(page.form)),
            AdminForms.post(
                AdminPaths.newProduct, context: context, class: "panel product-form", labelledBy: nil,
                productFields(page.form, currency: page.currency, categories: page.categories),
                .p([.class("hint")], "A new product starts with no stock: adjust it once the product is saved."),
                AdminForms.submit("Save", style: .primary)))
    }

    /// A product at `/admin/products/{id}`: the form (with the hidden `version`), an edit conflict
    /// when someone saved it meanwhile, the image with **Upload**, the stock with **Adjust stock**,
    /// and the stock ledger.
    public static func product(_ page: AdminProductPage, context: AdminContext) -> HTMLDocument {
        let problems =
            productProblems(page.form)
            + (page.imageError.map { [("image", $0)] } ?? [])
            + AdminProductPage.StockForm.Field.allCases.compactMap { field in
                page.stockForm.errors[field].map { ("stock-\(field.rawValue)", $0) }
            }
        return AdminLayout.document(
            title: problems.isEmpty && page.conflict == nil ? page.title : "\(page.title) (needs your attention)",
            context: context, section: .products,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.products)], "Products")),
            .div(
                [.class("page-heading")],
                .h1(page.title),
                .p([.class("heading-actions")], AdminTables.badge(active: page.isActive))),
            page.conflict.map { conflictNotice($0, page: page, context: context) } ?? .empty,
            AdminForms.errorSummary(id: "problems", problems),
            .div(
                [.class("product-layout")],
                .section(
                    [.class("panel"), .ariaLabelledBy("details-title")],
                    .h2([.id("details-title")], "Details"),
                    AdminForms.post(
                        AdminPaths.product(page.id), context: context, class: "product-form",
                        AdminForms.hidden(AdminFormFields.version, String(page.version)),
                        productFields(page.form, currency: page.currency, categories: page.categories),
                        AdminForms.submit("Save", style: .primary))),
                .div(
                    [.class("product-side")],
                    imageSection(page, context: context),
                    stockSection(page, context: context))),
            ledger(page, context: context))
    }

    // MARK: The form

    private static func productProblems(_ form: AdminProductForm) -> [(fieldID: String, message: String)] {
        ProductField.allFormOrder.compactMap { field in form.errors[field].map { (field.rawValue, $0) } }
    }

    private static func productFields(_ form: AdminProductForm, currency: Currency, categories: [String]) -> Node {
        func field(_ field: ProductField, hint: String? = nil, required: Bool = true) -> AdminForms.Field {
            AdminForms.Field(
                id: field.rawValue, name: field.rawValue, label: field.label, hint: hint, error: form.errors[field],
                isRequired: required)
        }
        let example = ProductRules.example(currency)
        return .fragment(
            AdminForms.input(
                field(.title), value: form.title, [.maxlength(ProductRules.titleLengths.upperBound)]),
            AdminForms.textarea(
                field(.description, required: false), value: form.description, rows: 6,
                [.maxlength(ProductRules.maximumDescriptionLength)]),
            AdminForms.input(
                field(.category, hint: "Choose one the shop has, or type a new one."), value: form.category,
                [.list("categories"), .maxlength(ProductRules.categoryLengths.upperBound), .autocomplete("off")]),
            .datalist([.id("categories")], categories.map { .option([.value($0)], $0) }),
            AdminForms.input(
                field(.price, hint: "In \(currency.code), like \(example)."), value: form.price,
                [.inputmode("decimal"), .autocomplete("off"), .class("input-short")]),
            AdminForms.input(
                field(.sku, hint: "Letters, digits, hyphens, underscores or dots; unique in the shop."),
                value: form.sku,
                [
                    .maxlength(ProductRules.skuLengths.upperBound), .autocomplete("off"), .spellcheck(false),
                    .autocapitalize("characters"), .class("input-short"),
                ]),
            AdminForms.checkbox(
                field(
                    .active, hint: "Listed in the shop. Unchecked, it is archived: kept for its orders, not sold.",
                    required: false),
                checked: form.active))
    }

    // MARK: Edit conflict

    private static func conflictNotice(
        _ conflict: AdminProductPage.EditConflict, page: AdminProductPage, context: AdminContext
    ) -> Node {
        let differences = page.differences(locale: context.locale)
        let rows = differences.map { difference in
            AdminTables.Row(
                [],
                .heading(difference.field.label),
                .init(difference.theirs, class: "prose"),
                .init(difference.yours, class: "prose"))
        }
        return .section(
            [.class("notice notice-error conflict"), .ariaLabelledBy("conflict-title")],
            .h2([.id("conflict-title")], "Someone changed this product since you opened it"),
            .p(
                [],
                .strong(conflict.changedBy),
                .text(" saved it on "),
                context.time(conflict.changedAt),
                .text(". Nothing of yours is saved yet: your values are kept in the form below.")),
            differences.isEmpty
                ? .p("Their change matches what you typed.")
                : AdminTables.table(
                    id: "conflict-fields", caption: "Fields that differ",
                    columns: [.init("Field"), .init("Theirs now"), .init("Yours")], rows: rows),
            .p(
                [],
                .text("Check your values. "),
                .strong("Save"),
                .text(" now replaces their version with yours; to keep theirs, "),
                .a([.href(AdminPaths.product(page.id))], "reload the product"),
                .text(".")))
    }

    // MARK: Image

    private static func imageSection(_ page: AdminProductPage, context: AdminContext) -> Node {
        .section(
            [.class("panel"), .ariaLabelledBy("image-title")],
            .h2([.id("image-title")], "Image"),
            page.imagePath.map { path in
                .img([.src(path), .alt(page.title), .width(240), .height(240), .class("product-image")])
            } ?? .p([.class("quiet")], "No image yet."),
            AdminForms.post(
                AdminPaths.productImage(page.id), context: context, class: "upload-form", multipart: true,
                AdminForms.file(
                    AdminForms.Field(
                        id: "image", name: AdminFormFields.image, label: "Image", hint: "PNG or JPEG, at most 2 MB.",
                        error: page.imageError, isRequired: true),
                    accept: "image/png,image/jpeg"),
                AdminForms.submit("Upload")))
    }

    // MARK: Stock

    private static func stockSection(_ page: AdminProductPage, context: AdminContext) -> Node {
        let form = page.stockForm
        func field(
            _ field: AdminProductPage.StockForm.Field, _ label: String, hint: String? = nil
        )
            -> AdminForms.Field
        {
            AdminForms.Field(
                id: "stock-\(field.rawValue)", name: field.rawValue, label: label, hint: hint,
                error: form.errors[field], isRequired: field != .note)
        }
        return .section(
            [.class("panel"), .ariaLabelledBy("stock-title")],
            .h2([.id("stock-title")], "Stock"),
            .p(
                [.class("stock-now")],
                .text("In stock: "),
                .strong(context.number(page.stock)),
                .text(page.stock == 1 ? " unit" : " units")),
            AdminForms.post(
                AdminPaths.productStock(page.id), context: context, class: "stock-form",
                labelledBy: "adjust-title",
                .h3([.id("adjust-title")], .text("Adjust stock")),
                form.idempotencyKey.map { AdminForms.hidden(AdminFormFields.idempotencyKey, $0) } ?? .empty,
                AdminForms.input(
                    field(.change, "Change", hint: "A whole number: +12 received, −2 damaged."), value: form.change,
                    [.inputmode("numeric"), .autocomplete("off"), .class("input-short")]),
                AdminForms.select(
                    field(.reason, "Reason"),
                    options: StockReason.staffReasons.map { ($0.rawValue, $0.label) },
                    selected: form.reason?.rawValue, placeholder: "Choose a reason"),
                AdminForms.input(
                    field(.note, "Note", hint: "Optional."), value: form.note,
                    [.maxlength(StockAdjustment.maximumNoteLength), .autocomplete("off")]),
                AdminForms.submit("Adjust stock", style: .primary)))
    }

    private static func ledger(_ page: AdminProductPage, context: AdminContext) -> Node {
        guard !page.ledger.isEmpty else {
            return .section(
                [.class("ledger"), .ariaLabelledBy("ledger-title")],
                .h2([.id("ledger-title")], "Stock ledger"),
                .p([.class("quiet")], "No stock changes yet."))
        }
        let rows = page.ledger.map { entry in
            AdminTables.Row(
                [],
                .heading(context.time(entry.at, short: true)),
                .init(entry.actor.name),
                .init(context.signed(entry.change)),
                .init(entry.reason.label),
                .init(entry.note ?? "", class: "prose"),
                .init(entry.orderID.map { .a([.href(AdminPaths.order($0)), .class("order-id")], $0) } ?? .empty),
                .init(context.number(entry.stockAfter)))
        }
        return .section(
            [.class("ledger"), .ariaLabelledBy("ledger-title")],
            .h2([.id("ledger-title")], "Stock ledger"),
            AdminTables.table(
                id: "ledger", caption: "Stock changes, newest first (times in \(context.zoneName))",
                columns: [
                    .init("When"), .init("Who"), .init("Change", number: true), .init("Reason"), .init("Note"),
                    .init("Order"), .init("Stock after", number: true),
                ],
                rows: rows))
    }
}
