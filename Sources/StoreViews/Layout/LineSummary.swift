import HTML

/// The short list of basket lines beside the checkout forms: "Running socks × 2 — €17.90".
enum LineSummary {
    static func view(_ lines: [BasketLineItem], context: PageContext) -> Node {
        .ul(
            [.class("summary-lines")],
            .fragment(
                lines.map { line in
                    .li(
                        [],
                        .span([.class("line-name")], "\(line.title) × \(line.quantity)"),
                        .text(" "),
                        .span([.class("line-amount")], context.money(line.lineTotal)))
                }))
    }
}
