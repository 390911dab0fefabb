/// The web storefront's pages (docs/BEHAVIOUR.md §9), each a pure function from its view data and the
/// request's ``PageContext`` to a whole HTML document.
///
/// The pages look nothing up and import neither the database nor HTTP: the server gathers the
/// view data, calls a page, and sends the rendered bytes. Every page has the same frame (see the
/// header, status region and footer of `PageLayout`), one `h1`, and no inline script or style, so
/// it works with JavaScript off and under a strict Content Security Policy. The addresses the
/// pages link and post to, and the fields each form sends, are listed on ``StorePaths``.
public enum StorePages {}
