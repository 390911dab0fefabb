import HTML

/// The frame every page of the store's two faces, the storefront and the back office, is drawn in:
/// the language, the viewport for phones, the title, the one stylesheet, a link past the header
/// for keyboard and screen-reader users, the header, the `<main>` that starts with a live region
/// for the status of what was just done, and the footer. Each face brings its own header, footer
/// and stylesheet.
package enum DocumentFrame {
    /// A whole document titled `title`, whose `<main>` holds `status` and then `content`.
    package static func document(
        title: String, stylesheet: String, header: Node, status: StatusMessage?, content: [Node], footer: Node
    ) -> HTMLDocument {
        HTMLDocument(
            .html(
                [.lang("en")],
                .head(
                    .meta([.charset("utf-8")]),
                    .meta([.name("viewport"), .content("width=device-width, initial-scale=1")]),
                    .title(title),
                    .link([.rel("stylesheet"), .href(stylesheet)])),
                .body(
                    [],
                    .a([.class("skip-link"), .href("#main")], "Skip to content"),
                    header,
                    .main(
                        [.id("main"), .class("page")],
                        statusRegion(status),
                        .fragment(content)),
                    footer)))
    }

    /// The region that tells what the last action did. It is always present, so assistive
    /// technology knows it before anything is written into it.
    private static func statusRegion(_ status: StatusMessage?) -> Node {
        .div(
            [.class("status-region"), .ariaLive(.polite)],
            status.map { .p([.class("status status-\($0.kind.rawValue)")], $0.text) } ?? .empty)
    }
}
