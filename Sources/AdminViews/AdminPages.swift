/// The back office's pages (docs/BEHAVIOUR.md §13), each a pure function from its view data and the
/// request's ``AdminContext`` to a whole HTML document.
///
/// The pages look nothing up and import neither the database nor HTTP: the server gathers the
/// view data, calls a page, and sends the rendered bytes. Every page has the same frame (the
/// header with the sections the member of staff may open, who is signed in and **Log out**, an
/// `aria-live` status region, the footer), one `h1`, no script and no inline style, so it works
/// with JavaScript off and under a strict Content Security Policy. The addresses the pages link
/// and post to, and the fields each form sends, are listed on ``AdminPaths`` and
/// ``AdminFormFields``.
public enum AdminPages {}
