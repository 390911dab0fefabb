import HTML

/// The notice a checkout page shows when the last payment did not go through: what happened,
/// that nothing was charged twice, and what to do next.
enum ProblemNotice {
    static func view(_ problem: CheckoutProblem, context: PageContext) -> Node {
        .section(
            [.class("notice notice-error"), .ariaLabelledBy("problem-title")],
            .h2([.id("problem-title")], problem.title),
            .p(problem.message),
            details(problem))
    }

    private static func details(_ problem: CheckoutProblem) -> Node {
        switch problem {
        case .soldOut(let lines):
            return .fragment(
                .ul(
                    [.class("short-lines")],
                    .fragment(
                        lines.map { line in
                            .li(
                                line.available > 0
                                    ? "\(line.title) — only \(line.available) left" : "\(line.title) — sold out")
                        })),
                .p([], .a([.href(StorePaths.basket)], "Change your basket")))
        case .paymentInProgress:
            return .p([], .a([.href(StorePaths.orders)], "See your orders"))
        case .declined, .unavailable, .priceChanged:
            return .empty
        }
    }
}
