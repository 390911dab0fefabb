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

// The catalog's files (docs/BEHAVIOUR.md §13.7–§13.8).

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
