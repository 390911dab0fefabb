import CheckoutKit
import Foundation
import HTML

extension AdminPages {
    /// Every promotion code at `/admin/promotions`: kind and value, minimum subtotal, window,
    /// usage, status, and **Disable** for a code that works now or will; **New promotion**.
    public static func promotions(_ page: AdminPromotionsPage, context: AdminContext) -> HTMLDocument {
        let list: Node =
            page.promotions.isEmpty
            ? AdminTables.empty(
                "There are no promotion codes yet.",
                .p([], AdminForms.buttonLink("New promotion", href: AdminPaths.newPromotion, style: .primary)))
            : AdminTables.table(
                id: "promotions", caption: "Promotion codes (times in \(context.zoneName))",
                columns: [
                    .init("Code"), .init("Takes off", number: true), .init("Minimum subtotal", number: true),
                    .init("Starts"), .init("Ends"), .init("Used", number: true), .init("Status"), .init("Action"),
                ],
                rows: page.promotions.map { promotionRow($0, context: context) })
        return AdminLayout.document(
            title: "Promotions", context: context, section: .promotions,
            .div(
                [.class("page-heading")],
                .h1("Promotions"),
                .p(
                    [.class("heading-actions")],
                    AdminForms.buttonLink("New promotion", href: AdminPaths.newPromotion, style: .primary))),
            list)
    }

    private static func promotionRow(_ row: AdminPromotionsPage.Row, context: AdminContext) -> AdminTables.Row {
        let promotion = row.promotion
        let code = promotion.code.rawValue
        let codeID = "promotion-\(AdminURL.escaped(code))"
        let takesOff =
            switch promotion.kind {
            case .percentOff(let rate): rate.description
            case .amountOff(let amount): context.money(amount)
            }
        let usage =
            promotion.usageLimit.map { "\(context.number(promotion.timesUsed)) / \(context.number($0))" }
            ?? context.number(promotion.timesUsed)
        return AdminTables.Row(
            row.status == .active || row.status == .scheduled ? [] : [.class("inactive")],
            .heading(.code([.id(codeID)], code)),
            .init(takesOff),
            .init(promotion.minimumSubtotal.isZero ? "None" : context.money(promotion.minimumSubtotal)),
            .init(promotion.startsAt.map { context.time($0, short: true) } ?? .text("Any time")),
            .init(promotion.endsAt.map { context.time($0, short: true) } ?? .text("Never")),
            .init(usage),
            .init(AdminTables.badge(row.status)),
            .init(
                row.status.mayDisable
                    ? AdminForms.post(
                        AdminPaths.disablePromotion(code), context: context, class: "inline-form",
                        AdminForms.submit("Disable", style: .danger, describedBy: codeID))
                    : .empty))
    }

    /// The **New promotion** form at `/admin/promotions/new`: **Code**, **Kind**, **Value**,
    /// **Minimum subtotal**, **Starts**, **Ends**, **Usage limit**, **Save**.
    public static func newPromotion(_ page: AdminNewPromotionPage, context: AdminContext) -> HTMLDocument {
        let form = page.form
        func field(
            _ field: AdminPromotionForm.Field, _ label: String, hint: String? = nil, required: Bool = false
        )
            -> AdminForms.Field
        {
            AdminForms.Field(
                id: "promotion-\(field.rawValue)", name: field.rawValue, label: label, hint: hint,
                error: form.errors[field], isRequired: required)
        }
        let problems = AdminPromotionForm.Field.allCases.compactMap { field in
            form.errors[field].map { ("promotion-\(field.rawValue)", $0) }
        }
        let example = ProductRules.example(page.currency)
        let zone = context.zoneName
        return AdminLayout.document(
            title: problems.isEmpty ? "New promotion" : "New promotion (has problems)", context: context,
            section: .promotions,
            .p([.class("breadcrumb")], .a([.href(AdminPaths.promotions)], "Promotions")),
            .h1("New promotion"),
            AdminForms.errorSummary(id: "problems", problems),
            AdminForms.post(
                AdminPaths.newPromotion, context: context, class: "panel promotion-form",
                AdminForms.input(
                    field(
                        .code, "Code",
                        hint: "Letters and digits, up to \(PromotionCode.maximumLength); shoppers type it.",
                        required: true),
                    value: form.code,
                    [
                        .maxlength(PromotionCode.maximumLength), .autocomplete("off"), .spellcheck(false),
                        .autocapitalize("characters"), .class("input-short"),
                    ]),
                AdminForms.select(
                    field(.kind, "Kind"),
                    options: AdminPromotionForm.Kind.allCases.map { ($0.rawValue, $0.label) },
                    selected: form.kind.rawValue),
                AdminForms.input(
                    field(
                        .value, "Value",
                        hint:
                            "Percent off: a whole number from 1 to 100. Amount off: in \(page.currency.code), like \(example).",
                        required: true),
                    value: form.value, [.inputmode("decimal"), .autocomplete("off"), .class("input-short")]),
                AdminForms.input(
                    field(
                        .minimumSubtotal, "Minimum subtotal",
                        hint: "In \(page.currency.code), like \(example). Empty: no minimum."),
                    value: form.minimumSubtotal, [.inputmode("decimal"), .autocomplete("off"), .class("input-short")]),
                .div(
                    [.class("field-row")],
                    AdminForms.input(
                        field(.starts, "Starts", hint: "In \(zone). Empty: at once."), type: "datetime-local",
                        value: form.starts),
                    AdminForms.input(
                        field(.ends, "Ends", hint: "In \(zone). Empty: never."), type: "datetime-local",
                        value: form.ends)),
                AdminForms.input(
                    field(.usageLimit, "Usage limit", hint: "How many orders may use it. Empty: no limit."),
                    type: "number", value: form.usageLimit,
                    [.min(1), .step(1), .inputmode("numeric"), .class("input-short")]),
                AdminForms.submit("Save", style: .primary)))
    }
}
