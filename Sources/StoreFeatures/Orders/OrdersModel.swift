import CheckoutKit
import Foundation
import Observation
import StoreAPI
import StoreClient

/// The shopper's orders and one receipt (docs/BEHAVIOUR.md §7, §10), each with where its payment
/// stands and the refunds that gave money back (§14).
@MainActor
@Observable
public final class OrdersModel {
    /// What the screen presents over the list.
    public enum Destination: Hashable, Sendable {
        /// One order's receipt, as the server has it now (refunds may have been made since it was
        /// paid).
        case receipt(OrderBody)
    }

    /// An alert the screen shows.
    public enum Alert: Hashable, Sendable {
        case receiptFailed(message: String)
    }

    public private(set) var state: LoadState<[OrderBody]> = .notStarted
    public var destination: Destination?
    public var alert: Alert?
    /// The order whose receipt is on its way.
    public private(set) var openingOrderID: String?

    private let orders: any OrdersClient
    private let locale: Locale
    private let timeZone: TimeZone

    /// - Parameters:
    ///   - orders: where the orders come from.
    ///   - locale, timeZone: how amounts and the times of refunds are written.
    public init(orders: any OrdersClient, locale: Locale = .current, timeZone: TimeZone = .current) {
        self.orders = orders
        self.locale = locale
        self.timeZone = timeZone
    }

    // MARK: What the screen shows

    /// The receipt shown, if any.
    public var receipt: OrderBody? {
        if case .receipt(let order) = destination { return order }
        return nil
    }

    /// The payment status and refunds of the receipt shown.
    public var receiptRefunds: ReceiptRefunds? {
        receipt.map(refunds(of:))
    }

    /// `order`'s payment status and refunds, worded for the screen.
    public func refunds(of order: OrderBody) -> ReceiptRefunds {
        ReceiptRefunds(order, locale: locale, timeZone: timeZone)
    }

    /// `Paid`, `Partially refunded` or `Refunded`, for a row of the list.
    public func paymentStatusLabel(of order: OrderBody) -> String {
        PaymentStatus(rawValue: order.paymentStatus)?.label ?? order.paymentStatus
    }

    // MARK: What the person did

    /// The screen appeared: loads the orders once.
    public func task() async {
        guard !state.isLoadingOrLoaded else { return }
        await load()
    }

    /// "Try again" after a failed load.
    public func tryAgainButtonTapped() async {
        guard case .failed = state else { return }
        await load()
    }

    /// Pull to refresh: reads the orders again, keeping the list shown if that fails.
    public func refreshPulled() async {
        guard case .loaded = state else { return await task() }
        if let fresh = try? await orders.orders() { state = .loaded(fresh) }
    }

    /// An order tapped in the list: opens its receipt.
    public func orderTapped(id: String) async {
        guard openingOrderID == nil else { return }
        openingOrderID = id
        defer { openingOrderID = nil }
        do throws(StoreClientError) {
            destination = .receipt(try await orders.order(id: id))
        } catch {
            alert = .receiptFailed(message: error.message)
        }
    }

    /// A payment went through elsewhere: its order joins the top of the list, if the list is shown.
    public func orderPlaced(_ order: OrderBody) {
        guard case .loaded(let list) = state, !list.contains(where: { $0.id == order.id }) else { return }
        state = .loaded([order] + list)
    }

    // MARK: Work

    private func load() async {
        state = .loading
        do throws(StoreClientError) {
            state = .loaded(try await orders.orders())
        } catch {
            state = .failed(message: error.message)
        }
    }
}
