import CatalogFiles
import CheckoutKit
import HTTPServer
import StoreDatabase
import StoreServices

// What the back office's errors answer (docs/BEHAVIOUR.md §13), beside the shop's in ErrorAnswers.swift.

extension HTTPError {
    /// A query parameter that cannot be read.
    static func invalidQuery(_ name: String, _ message: String) -> HTTPError {
        HTTPError(.badRequest, type: "invalid_query", message: message, field: name)
    }
}

extension StaffInputError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .invalidEmail:
            HTTPError(
                .unprocessableContent, type: "invalid_email", message: "That is not an email address.", field: "email")
        case .passwordTooShort:
            HTTPError(
                .unprocessableContent, type: "password_too_short",
                message: "A password has at least \(StaffService.minimumPasswordLength) characters.", field: "password")
        }
    }
}

extension StaffChangeError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .emailTaken:
            HTTPError(
                .conflict, type: "email_taken", message: "A member of staff has that email already.", field: "email")
        case .lastOwner:
            HTTPError(.conflict, type: "last_owner", message: "The shop needs an owner: this would leave it none.")
        }
    }
}

extension ProductDetailsError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        HTTPError(
            .unprocessableContent, type: "invalid_product",
            message: problems.map(\.message).joined(separator: " "), field: problems.first?.field.rawValue)
    }
}

extension ProductChangeError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .notFound: .productNotFound
        case .skuTaken(_, let title):
            HTTPError(.conflict, type: "sku_taken", message: "That SKU is used by “\(title)”.", field: "sku")
        case .editConflict:
            HTTPError(
                .conflict, type: "edit_conflict",
                message: "Someone changed this product since you opened it. Nothing was saved: here it is now.")
        case .insufficientStock(let available):
            HTTPError(
                .conflict, type: "insufficient_stock",
                message: "Only \(available) in stock: the stock cannot go below zero. Nothing was changed.",
                field: "change")
        case .keyReused:
            HTTPError(
                .unprocessableContent, type: "idempotency_mismatch",
                message: "This idempotency key was used for a different stock adjustment. Use a new key for a new one.",
                field: "Idempotency-Key")
        }
    }
}

extension StockAdjustmentError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        let field =
            switch self {
            case .invalidChange: "change"
            case .invalidReason: "reason"
            case .invalidNote, .cardNumberInNote: "note"
            }
        return HTTPError(.unprocessableContent, type: "invalid_stock_adjustment", message: message, field: field)
    }
}

// Promotions, customers and staff removal (docs/BEHAVIOUR.md §13.9–§13.13).

extension HTTPError {
    static let promotionNotFound = HTTPError.notFound("There is no such promotion.")
    static let customerNotFound = HTTPError.notFound("There is no such customer.")
    static let staffNotFound = HTTPError.notFound("There is no such member of staff.")

    /// 422 `invalid_promotion`, naming the request's field.
    static func invalidPromotion(_ message: String, field: String) -> HTTPError {
        HTTPError(.unprocessableContent, type: "invalid_promotion", message: message, field: field)
    }
}

extension PromotionDetailsError: HTTPErrorConvertible {
    public var httpError: HTTPError { httpError(valueField: PromotionField.value.rawValue) }

    /// 422 `invalid_promotion` with every problem's message, its `field` the first problem's, the
    /// value named `valueField` (the JSON API's `percent_off` or `amount_off`).
    func httpError(valueField: String) -> HTTPError {
        .invalidPromotion(
            problems.map(\.message).joined(separator: " "),
            field: problems.first.map { $0.field == .value ? valueField : $0.field.rawValue } ?? "code")
    }
}

extension PromotionChangeError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .exists(let code):
            HTTPError(
                .conflict, type: "promotion_exists", message: "The code \(code.rawValue) exists already.",
                field: "code")
        case .notFound: .promotionNotFound
        }
    }
}

extension FulfilmentChangeError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .notFound: .orderNotFound
        case .invalidTransition(let current):
            HTTPError(
                .conflict, type: "invalid_transition",
                message: "This order is \(current.rawValue), which does not allow that step. Nothing was changed.")
        case .movedMeanwhile(let current):
            HTTPError(
                .conflict, type: "invalid_transition",
                message: "This order changed meanwhile: it is \(current.rawValue) now. Nothing was changed.")
        }
    }
}

extension StaffRemovalError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .notFound: .staffNotFound
        case .removerNotStaff: .staffSessionRequired
        }
    }
}

extension FulfilmentInputError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        switch self {
        case .cancelIsNotAStep:
            HTTPError(
                .unprocessableContent, type: "invalid_fulfilment_status",
                message:
                    "Cancelling refunds and restocks the order: use cancel (POST /api/admin/orders/{id}/cancel), "
                    + "not a fulfilment step.",
                field: "status")
        case .trackingNumberRequired:
            HTTPError(
                .unprocessableContent, type: "invalid_tracking_number",
                message: "Shipping needs the parcel's tracking number.", field: "tracking_number")
        case .invalidTrackingNumber:
            HTTPError(
                .unprocessableContent, type: "invalid_tracking_number",
                message: "A tracking number is 1 to 64 letters, digits, spaces and hyphens.", field: "tracking_number")
        }
    }
}

// The catalog's files (docs/BEHAVIOUR.md §13.14–§13.15).

extension HTTPError {
    /// A catalog import whose body is not sent as a CSV file.
    static let csvBodyRequired = HTTPError(
        .unsupportedMediaType, type: "unsupported_media_type",
        message: "Send the catalog file itself as the body, with Content-Type: text/csv.")
    /// An image upload whose body is neither an image nor a form.
    static let imageBodyRequired = HTTPError(
        .unsupportedMediaType, type: "unsupported_media_type",
        message: "Send the image as the body (Content-Type: image/png or image/jpeg) or as the field image of a "
            + "multipart/form-data form.")
    /// A form without its `image` field.
    static let noImageField = HTTPError(
        .unprocessableContent, type: "invalid_image",
        message: "The form has no image field: choose a PNG or JPEG file.",
        field: "image")
}

extension ImageProblem: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .tooLarge: HTTPError(.payloadTooLarge, type: "image_too_large", message: message, field: "image")
        case .empty, .notPNGOrJPEG, .truncated, .damaged, .tooManyPixels:
            HTTPError(
                .unprocessableContent, type: "invalid_image",
                message: message + " Upload a PNG or JPEG image of at most 2 MB.", field: "image")
        }
    }
}

extension CatalogImportError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .uploadNotFound:
            HTTPError(
                .notFound, type: "upload_not_found",
                message: "There is no such preview: a preview can be imported for an hour. Upload the file again.")
        case .alreadyApplied:
            HTTPError(.conflict, type: "already_imported", message: "This file was imported already.")
        case .catalogChanged:
            HTTPError(
                .conflict, type: "catalog_changed",
                message: "Someone changed a product of this file while it was being imported. Nothing was imported: "
                    + "preview the file again.")
        case .stockChangeNotAllowed:
            HTTPError(
                .forbidden, type: "forbidden",
                message: "This file changes stock, which your role may not adjust. Nothing was imported.")
        }
    }
}

extension CatalogFileError: HTTPErrorConvertible {
    package var httpError: HTTPError {
        HTTPError(
            .unprocessableContent, type: "invalid_catalog_file",
            message: "The file has problems, listed by line. Nothing was imported: fix them and upload it again.")
    }
}
