import CheckoutKit
import Foundation

/// A product's fields as the form holds them: as typed, so a refused form comes back as it was
/// sent, with a message beside each field that has a problem.
public struct AdminProductForm: Hashable, Sendable {
    public var title: String
    public var description: String
    public var category: String
    /// The price as typed (`12.50`), in the page's currency.
    public var price: String
    public var sku: String
    /// Listed in the shop; unchecked is archived.
    public var active: Bool
    /// What is wrong with each field, in one sentence ("Price must be an amount like 12.50",
    /// "That SKU is used by Running cap").
    public var errors: [ProductField: String]

    public init(
        title: String = "", description: String = "", category: String = "", price: String = "", sku: String = "",
        active: Bool = true, errors: [ProductField: String] = [:]
    ) {
        self.title = title
        self.description = description
        self.category = category
        self.price = price
        self.sku = sku
        self.active = active
        self.errors = errors
    }

    /// The form filled with a saved product's details.
    public init(_ details: ProductDetails) {
        self.init(
            title: details.title, description: details.description, category: details.category,
            price: details.price.amountText, sku: details.sku, active: details.active)
    }

    /// The form as typed, with the problems ``CheckoutKit/ProductRules`` found (the first per field).
    public func with(problems: [ProductFieldProblem]) -> AdminProductForm {
        var form = self
        for problem in problems where form.errors[problem.field] == nil {
            form.errors[problem.field] = problem.message
        }
        return form
    }
}

/// The new-product form at `/admin/products/new`.
public struct AdminNewProductPage: Hashable, Sendable {
    public var form: AdminProductForm
    /// The shop's currency, which prices are typed in.
    public var currency: Currency
    /// The categories products already have, offered as suggestions.
    public var categories: [String]

    public init(form: AdminProductForm = AdminProductForm(), currency: Currency, categories: [String]) {
        self.form = form
        self.currency = currency
        self.categories = categories
    }
}

/// A product at `/admin/products/{id}`: its form, its image, its stock with **Adjust stock**, and
/// its stock ledger.
public struct AdminProductPage: Hashable, Sendable {
    /// Someone saved the product after this form was made: what they changed, and the version the
    /// next **Save** overwrites deliberately.
    public struct EditConflict: Hashable, Sendable {
        /// Who saved it (an email, or `command line` for an import from a terminal).
        public var changedBy: String
        public var changedAt: Date
        /// The product as it is saved now.
        public var current: ProductDetails

        public init(changedBy: String, changedAt: Date, current: ProductDetails) {
            self.changedBy = changedBy
            self.changedAt = changedAt
            self.current = current
        }
    }

    /// A field whose saved value differs from the form's.
    public struct Difference: Hashable, Sendable {
        public var field: ProductField
        /// The saved value, for people: `€23.00`, `Archived`.
        public var theirs: String
        /// The form's value, for people.
        public var yours: String
    }

    /// The **Adjust stock** form: as typed, with its problems.
    public struct StockForm: Hashable, Sendable {
        /// A field of the stock form.
        public enum Field: String, CaseIterable, Hashable, Sendable {
            case change
            case reason
            case note
        }

        /// The change as typed: `12`, `+12`, `-2`.
        public var change: String
        /// The reason chosen; `nil` before one is.
        public var reason: StockReason?
        public var note: String
        /// What is wrong with each field ("A change is a whole number of units, not zero, like 12 or
        /// -2.", "Only 3 in stock: the stock cannot go below zero.").
        public var errors: [Field: String]
        /// A key the server mints with the page so that a resubmitted form adjusts once; sent back in
        /// the hidden `idempotency_key` field when present.
        public var idempotencyKey: String?

        public init(
            change: String = "", reason: StockReason? = nil, note: String = "", errors: [Field: String] = [:],
            idempotencyKey: String? = nil
        ) {
            self.change = change
            self.reason = reason
            self.note = note
            self.errors = errors
            self.idempotencyKey = idempotencyKey
        }
    }

    /// One line of the stock ledger: an adjustment or a sale.
    public struct LedgerEntry: Hashable, Sendable {
        public var at: Date
        public var actor: AdminActor
        /// The signed change in units.
        public var change: Int
        public var reason: StockReason
        public var note: String?
        /// The order of a sale (or of a refund's restock).
        public var orderID: String?
        /// The stock after this line.
        public var stockAfter: Int

        public init(
            at: Date, actor: AdminActor, change: Int, reason: StockReason, note: String? = nil,
            orderID: String? = nil, stockAfter: Int
        ) {
            self.at = at
            self.actor = actor
            self.change = change
            self.reason = reason
            self.note = note
            self.orderID = orderID
            self.stockAfter = stockAfter
        }
    }

    public var id: ProductID
    /// The title as saved: the page's heading and the image's alternative text.
    public var title: String
    /// Whether the product is listed as saved (the form may say otherwise).
    public var isActive: Bool
    public var form: AdminProductForm
    /// The version the form's next **Save** is made against: the version the page was made from, or
    /// in a conflict the current one.
    public var version: Int
    public var conflict: EditConflict?
    public var currency: Currency
    public var categories: [String]
    /// The product's image, `nil` before one is uploaded.
    public var imagePath: String?
    /// Why the last upload was refused ("That file is not a PNG or JPEG image.").
    public var imageError: String?
    /// Units in stock now.
    public var stock: Int
    public var stockForm: StockForm
    /// The ledger, newest first.
    public var ledger: [LedgerEntry]

    public init(
        id: ProductID, title: String, isActive: Bool, form: AdminProductForm, version: Int,
        conflict: EditConflict? = nil, currency: Currency, categories: [String], imagePath: String?,
        imageError: String? = nil, stock: Int, stockForm: StockForm = StockForm(), ledger: [LedgerEntry]
    ) {
        self.id = id
        self.title = title
        self.isActive = isActive
        self.form = form
        self.version = version
        self.conflict = conflict
        self.currency = currency
        self.categories = categories
        self.imagePath = imagePath
        self.imageError = imageError
        self.stock = stock
        self.stockForm = stockForm
        self.ledger = ledger
    }

    /// The fields whose saved value (in the conflict) differs from the form's, in the form's order;
    /// empty without a conflict.
    public func differences(locale: Locale) -> [Difference] {
        guard let current = conflict?.current else { return [] }
        let form = form
        func text(_ value: String) -> String { value.trimmingCharacters(in: .whitespacesAndNewlines) }
        func status(_ active: Bool) -> String { active ? "Active" : "Archived" }
        let typedPrice = try? Money(amount: text(form.price), currency: currency)
        var differences: [Difference] = []
        for field in ProductField.allFormOrder {
            let theirs: String
            let yours: String
            let differs: Bool
            switch field {
            case .title:
                (theirs, yours, differs) = (current.title, form.title, text(form.title) != current.title)
            case .description:
                let typed = text(form.description.replacingOccurrences(of: "\r\n", with: "\n"))
                (theirs, yours, differs) = (current.description, form.description, typed != current.description)
            case .category:
                (theirs, yours, differs) = (current.category, form.category, text(form.category) != current.category)
            case .price:
                theirs = current.price.formatted(locale: locale)
                yours = typedPrice?.formatted(locale: locale) ?? form.price
                differs = typedPrice != current.price
            case .sku:
                (theirs, yours, differs) = (current.sku, form.sku, text(form.sku) != current.sku)
            case .active:
                (theirs, yours, differs) = (status(current.active), status(form.active), form.active != current.active)
            }
            if differs { differences.append(Difference(field: field, theirs: theirs, yours: yours)) }
        }
        return differences
    }
}

extension ProductField {
    /// The fields in the order the form shows them.
    static let allFormOrder: [ProductField] = [.title, .description, .category, .price, .sku, .active]
}
