/// The storefront's one stylesheet, served at ``StorePaths/stylesheet`` as `text/css`.
///
/// Written for the pages of ``StorePages``: a system font stack and no outside URLs (the store may
/// run offline), responsive from 360 px phones to desktops, focus always visible, text and
/// controls at WCAG AA contrast, and touch targets of at least 44 px for the controls people tap.
/// Colours are named once as custom properties at the top.
public enum StoreStylesheet {
    /// The stylesheet's text.
    public static let css = #"""
        :root {
          color-scheme: light;
          --ink: #1b1f24;
          --muted: #57606a;
          --line: #d0d7de;
          --control: #6e7781;
          --page: #f6f7f9;
          --surface: #ffffff;
          --brand: #1d4ed8;
          --brand-dark: #1e3a8a;
          --brand-tint: #eff4ff;
          --success: #1a7f37;
          --success-tint: #edfaef;
          --warning: #9a3412;
          --danger: #b42318;
          --danger-tint: #fef3f2;
          --radius: 12px;
          --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif;
          --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
        }

        *, *::before, *::after { box-sizing: border-box; }

        body {
          display: flex;
          flex-direction: column;
          min-height: 100vh;
          margin: 0;
          font-family: var(--font);
          font-size: 1rem;
          line-height: 1.5;
          color: var(--ink);
          background: var(--page);
          -webkit-text-size-adjust: 100%;
        }

        img { max-width: 100%; height: auto; }

        a { color: var(--brand); text-underline-offset: 0.15em; }
        a:hover { color: var(--brand-dark); }

        :focus-visible {
          outline: 3px solid var(--brand);
          outline-offset: 2px;
        }

        h1, h2, h3 { line-height: 1.25; }
        h1 { font-size: clamp(1.6rem, 5vw, 2.1rem); margin: 0.5rem 0 1rem; }
        h2 { font-size: 1.3rem; }

        .visually-hidden {
          position: absolute;
          width: 1px;
          height: 1px;
          margin: -1px;
          padding: 0;
          overflow: hidden;
          clip: rect(0 0 0 0);
          white-space: nowrap;
          border: 0;
        }

        .skip-link {
          position: absolute;
          left: 1rem;
          top: -4rem;
          z-index: 10;
          padding: 0.75rem 1rem;
          background: var(--surface);
          border-radius: 8px;
        }
        .skip-link:focus { top: 0.5rem; }

        /* Header */

        .site-header {
          background: var(--surface);
          border-bottom: 1px solid var(--line);
        }
        .header-inner {
          max-width: 72rem;
          margin: 0 auto;
          padding: 0.25rem 1rem;
          display: flex;
          flex-wrap: wrap;
          align-items: center;
          gap: 0 1rem;
        }
        .basket-link { order: 1; margin-left: auto; }
        .account { order: 2; flex-basis: 100%; margin-left: -0.5rem; }
        @media (min-width: 48rem) {
          .account { order: 1; flex-basis: auto; margin-left: auto; }
          .basket-link { order: 2; margin-left: 0; }
        }
        .brand {
          display: inline-flex;
          align-items: center;
          min-height: 44px;
          font-size: 1.3rem;
          font-weight: 800;
          letter-spacing: -0.01em;
          color: var(--brand-dark);
          text-decoration: none;
        }
        .header-links {
          display: flex;
          flex-wrap: wrap;
          align-items: center;
          gap: 0 0.25rem;
          margin: 0;
          padding: 0;
          list-style: none;
        }
        .header-links a, .link-button, .basket-link {
          display: inline-flex;
          align-items: center;
          min-height: 44px;
          padding: 0 0.5rem;
          color: var(--ink);
          font: inherit;
          font-weight: 600;
          text-decoration: none;
          background: none;
          border: 0;
          border-radius: 8px;
          cursor: pointer;
        }
        .header-links a:hover, .link-button:hover, .basket-link:hover { color: var(--brand); text-decoration: underline; }
        .header-links a[aria-current="page"], .basket-link[aria-current="page"] {
          color: var(--brand);
          text-decoration: underline;
        }
        .signed-in { flex-basis: 100%; color: var(--muted); font-size: 0.9rem; padding: 0 0.5rem; }
        @media (min-width: 48rem) {
          .signed-in { flex-basis: auto; }
        }
        .signed-in strong { color: var(--ink); }
        .logout { margin: 0; }
        .basket-count {
          display: inline-block;
          min-width: 1.6rem;
          margin-left: 0.35rem;
          padding: 0 0.45rem;
          border-radius: 999px;
          background: var(--brand);
          color: #ffffff;
          font-size: 0.85rem;
          line-height: 1.6rem;
          text-align: center;
        }

        /* Page */

        .page {
          flex: 1 0 auto;
          width: 100%;
          max-width: 72rem;
          margin: 0 auto;
          padding: 1rem 1rem 3rem;
        }

        .site-footer {
          border-top: 1px solid var(--line);
          padding: 1.5rem 1rem;
          color: var(--muted);
          font-size: 0.875rem;
          text-align: center;
        }

        .status, .notice {
          margin: 0 0 1rem;
          padding: 0.75rem 1rem;
          border-left: 4px solid var(--brand);
          border-radius: 8px;
          background: var(--brand-tint);
        }
        .status-success { border-color: var(--success); background: var(--success-tint); }
        .status-error, .notice-error { border-color: var(--danger); background: var(--danger-tint); }
        .notice h2 { font-size: 1.1rem; margin: 0 0 0.25rem; }
        .notice p { margin: 0.25rem 0; }
        .notice ul { margin: 0.5rem 0; padding-left: 1.25rem; }

        .hint { color: var(--muted); font-size: 0.9rem; }

        .summary, .review, .receipt-totals, .receipt-refunds, .method-option, .empty-state, .facts, .login-form, .order-card,
        .basket-line, .product-card, .catalog-filters, table.lines {
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }

        .empty-state { padding: 2rem 1.25rem; text-align: center; }
        .empty-state p { margin: 0 0 1rem; }
        .empty-state p:last-child { margin: 0; }

        .narrow { max-width: 26rem; }

        .columns { display: grid; gap: 1.5rem; align-items: start; }
        @media (min-width: 56rem) {
          .columns { grid-template-columns: minmax(0, 1fr) 22rem; }
        }

        /* Forms and buttons */

        .field label, fieldset legend { display: block; font-weight: 600; margin-bottom: 0.25rem; }
        input[type="text"], input[type="search"], input[type="email"], input[type="password"],
        input[type="number"], select {
          width: 100%;
          min-height: 44px;
          padding: 0.5rem 0.75rem;
          font: inherit;
          color: var(--ink);
          background: var(--surface);
          border: 1px solid var(--control);
          border-radius: 8px;
        }
        input[aria-invalid="true"] { border: 2px solid var(--danger); }
        input[type="radio"] {
          width: 1.5rem;
          height: 1.5rem;
          margin: 0;
          accent-color: var(--brand);
        }
        .field-error { margin: 0.35rem 0 0; color: var(--danger); font-weight: 600; font-size: 0.9rem; }

        .button {
          display: inline-flex;
          align-items: center;
          justify-content: center;
          min-height: 44px;
          padding: 0.5rem 1.1rem;
          font: inherit;
          font-weight: 600;
          line-height: 1.2;
          color: var(--brand);
          text-align: center;
          text-decoration: none;
          background: var(--surface);
          border: 1px solid var(--brand);
          border-radius: 8px;
          cursor: pointer;
        }
        .button:hover { background: var(--brand-tint); color: var(--brand-dark); }
        .button-primary { color: #ffffff; background: var(--brand); }
        .button-primary:hover { color: #ffffff; background: var(--brand-dark); }
        .button-quiet { padding-inline: 0.6rem; color: var(--danger); border-color: transparent; background: transparent; }
        .button-quiet:hover { color: var(--danger); background: var(--danger-tint); }
        .button:disabled, .button:disabled:hover {
          color: var(--muted);
          background: #eaeef2;
          border-color: var(--line);
          cursor: not-allowed;
        }

        /* Catalog */

        .catalog-filters {
          display: grid;
          grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
          gap: 0.75rem;
          align-items: end;
          margin-bottom: 1.5rem;
          padding: 1rem;
        }
        .catalog-filters .field-search, .catalog-filters .button { grid-column: 1 / -1; }
        @media (min-width: 40rem) {
          .catalog-filters { grid-template-columns: minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr) auto; }
          .catalog-filters .field-search, .catalog-filters .button { grid-column: auto; }
        }

        .category h2 { margin: 1.75rem 0 0.75rem; }
        .see-all { margin: 0.25rem 0 0; font-weight: 600; }
        .list-status { margin: -0.25rem 0 0.75rem; color: var(--muted); }
        .pager { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; align-items: center; margin: 0.75rem 0 0; }
        .pager a { font-weight: 600; }
        .see-all a, .pager a { display: inline-flex; align-items: center; min-height: 44px; }

        .product-grid {
          display: grid;
          grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr));
          gap: 1rem;
          margin: 0;
          padding: 0;
          list-style: none;
        }
        @media (min-width: 40rem) {
          .product-grid { grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); }
        }
        .product-card {
          position: relative;
          display: flex;
          flex-direction: column;
          gap: 0.25rem;
          padding: 0.75rem;
        }
        .product-card:hover { border-color: var(--control); box-shadow: 0 2px 8px rgba(27, 31, 36, 0.08); }
        .product-card .product-image { width: 100%; aspect-ratio: 1; border-radius: 8px; }
        .product-card h3 { margin: 0.5rem 0 0; font-size: 1rem; }
        .product-card h3 a { color: var(--ink); text-decoration: none; }
        .product-card h3 a:hover { text-decoration: underline; }
        .product-card h3 a::after { content: ""; position: absolute; inset: 0; border-radius: var(--radius); }
        .product-card h3 a:focus-visible { outline: none; }
        .product-card h3 a:focus-visible::after { outline: 3px solid var(--brand); outline-offset: 2px; }
        .product-card .add-form { position: relative; z-index: 1; margin-top: auto; padding-top: 0.5rem; }
        .product-card .add-form .button { width: 100%; padding-inline: 0.5rem; }

        .price { margin: 0; font-size: 1.15rem; font-weight: 700; }
        .rating { margin: 0; color: var(--muted); font-size: 0.9rem; }
        .stars { color: #8a5a00; }
        .stock { margin: 0; font-size: 0.9rem; font-weight: 700; }
        .stock-low { color: var(--warning); }
        .stock-out { color: var(--danger); }

        /* Product */

        .breadcrumb { margin: 0.5rem 0; font-size: 0.95rem; }
        .product-detail { display: grid; gap: 1.5rem; }
        @media (min-width: 48rem) {
          .product-detail { grid-template-columns: minmax(0, 22rem) 1fr; align-items: start; }
        }
        .product-detail > .product-image {
          width: 100%;
          max-width: 22rem;
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }
        .product-info h1 { margin-top: 0; }
        .product-info .price { font-size: 1.5rem; }
        .description { max-width: 40rem; }
        .add-form-detail { display: flex; flex-wrap: wrap; align-items: end; gap: 0.75rem; margin: 1rem 0; }
        .add-form-detail .field-quantity input, .quantity-form .field-quantity input { width: 4.5rem; }

        /* Basket */

        .basket-lines { display: grid; gap: 0.75rem; margin: 0; padding: 0; list-style: none; }
        .basket-line {
          display: grid;
          grid-template-columns: 4rem minmax(0, 1fr) auto;
          grid-template-areas:
            "image info total"
            "quantity quantity remove";
          gap: 0.5rem 0.75rem;
          align-items: center;
          padding: 0.75rem;
        }
        .basket-line .product-image { grid-area: image; align-self: start; width: 4rem; border-radius: 8px; }
        .line-info { grid-area: info; }
        .line-title { margin: 0; font-size: 1rem; }
        .line-title a { color: var(--ink); }
        .unit-price { margin: 0; color: var(--muted); font-size: 0.9rem; }
        .line-total { grid-area: total; margin: 0; font-weight: 700; text-align: right; }
        .quantity-form { grid-area: quantity; display: flex; align-items: end; gap: 0.5rem; }
        .quantity-form .field label { font-size: 0.9rem; }
        .remove-form { grid-area: remove; justify-self: end; align-self: end; }
        @media (min-width: 64rem) {
          .basket-line {
            grid-template-columns: 4rem minmax(0, 1fr) auto 6rem auto;
            grid-template-areas: "image info quantity total remove";
          }
          .basket-line .line-total, .basket-line .remove-form { align-self: end; padding-bottom: 0.6rem; }
          .basket-line .remove-form { padding-bottom: 0; }
        }

        .summary, .review { padding: 1rem 1.25rem; }
        .summary h2, .review h2 { margin-top: 0; }

        table.totals { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
        table.totals th { text-align: left; font-weight: 400; }
        table.totals td { text-align: right; white-space: nowrap; }
        table.totals th, table.totals td { padding: 0.4rem 0; border-bottom: 1px solid var(--line); }
        table.totals tr.total th, table.totals tr.total td {
          font-size: 1.15rem;
          font-weight: 700;
          border-top: 2px solid var(--ink);
          border-bottom: 0;
        }

        .free-shipping {
          margin: 0.75rem 0 0;
          padding: 0.5rem 0.75rem;
          color: var(--brand-dark);
          background: var(--brand-tint);
          border-radius: 8px;
        }

        .promo { margin-top: 1rem; padding-top: 1rem; border-top: 1px solid var(--line); }
        .promo .notice { font-size: 0.95rem; }
        .input-row { display: flex; gap: 0.5rem; }
        .input-row input { flex: 1; min-width: 0; }
        .applied-code {
          display: flex;
          align-items: center;
          justify-content: space-between;
          gap: 0.5rem;
          margin-bottom: 0.75rem;
          padding: 0 0 0 0.75rem;
          background: var(--success-tint);
          border-radius: 8px;
        }
        .applied-code p { margin: 0; }
        .applied-code form { margin: 0; }

        .checkout-form, .pay-form { margin-top: 1rem; }
        .checkout-form .button, .pay-form .button { width: 100%; min-height: 48px; font-size: 1.1rem; }

        /* Checkout */

        .methods { margin: 0 0 1rem; padding: 0; border: 0; }
        .methods legend { padding: 0; font-size: 1.3rem; font-weight: 700; margin-bottom: 0.75rem; }
        .method-option { margin-bottom: 0.75rem; padding: 0.5rem 1rem; }
        .choice { display: flex; flex-wrap: wrap; align-items: center; gap: 0 0.75rem; }
        .choice label { display: inline-flex; align-items: center; min-height: 44px; font-weight: 700; cursor: pointer; }
        .fee { flex-basis: 100%; padding: 0 0 0.5rem 2.25rem; color: var(--muted); font-size: 0.95rem; }
        @media (min-width: 30rem) {
          .fee { flex-basis: auto; margin-left: auto; padding: 0; }
        }
        .card-field { margin: 0.25rem 0 0.5rem; }
        .card-field .hint { margin: 0.35rem 0 0; }
        .method-form > .button { width: 100%; min-height: 48px; font-size: 1.1rem; }
        @media (min-width: 40rem) {
          .method-form > .button { width: auto; min-width: 12rem; }
        }

        .summary-lines { margin: 0 0 0.75rem; padding: 0; list-style: none; }
        .summary-lines li {
          display: flex;
          justify-content: space-between;
          gap: 1rem;
          padding: 0.35rem 0;
          border-bottom: 1px dashed var(--line);
        }
        .line-amount { white-space: nowrap; font-variant-numeric: tabular-nums; }
        .chosen-method { font-weight: 600; }

        /* Orders and receipts */

        .facts {
          display: grid;
          grid-template-columns: max-content minmax(0, 1fr);
          gap: 0.5rem 1.5rem;
          margin: 0 0 1.5rem;
          padding: 1rem 1.25rem;
        }
        .facts dt { color: var(--muted); font-weight: 600; }
        .facts dd { margin: 0; }
        @media (max-width: 30rem) {
          .facts { grid-template-columns: minmax(0, 1fr); gap: 0; }
          .facts dd { margin-bottom: 0.5rem; }
        }
        .order-id { font-family: var(--mono); font-size: 0.9rem; overflow-wrap: anywhere; }

        table.lines {
          width: 100%;
          border-collapse: separate;
          border-spacing: 0;
          overflow: hidden;
          font-variant-numeric: tabular-nums;
        }
        table.lines th, table.lines td { padding: 0.6rem 0.75rem; text-align: left; border-bottom: 1px solid var(--line); }
        table.lines thead th { color: var(--muted); font-size: 0.9rem; }
        table.lines tbody tr:last-child th, table.lines tbody tr:last-child td { border-bottom: 0; }
        table.lines tbody th { font-weight: 400; }
        table.lines .number { text-align: right; white-space: nowrap; }
        .receipt { max-width: 48rem; }
        .receipt-totals { margin-top: 1.5rem; padding: 1rem 1.25rem; }
        .receipt-totals h2 { margin-top: 0; }
        .receipt-refunds { margin-top: 1.5rem; padding: 1rem 1.25rem; }
        .receipt-refunds h2 { margin-top: 0; }
        .refunded-total { margin: 0; }
        .receipt-refunds > .hint { margin: 0.25rem 0 1rem; }
        .refund-list { display: grid; gap: 1rem; margin: 0; padding: 0; list-style: none; }
        .refund { padding-top: 1rem; border-top: 1px solid var(--line); }
        .refund h3 { margin: 0 0 0.5rem; font-size: 1rem; }
        .refund .hint { margin: 0 0 0.5rem; }
        .refund .summary-lines { margin: 0; }
        .refund .summary-lines li:last-child { border-bottom: 0; }
        .refund-pending h3 { color: var(--warning); }

        .badge {
          display: inline-block;
          padding: 0.1rem 0.6rem;
          border-radius: 999px;
          font-size: 0.85rem;
          font-weight: 700;
          color: var(--ink);
          background: #eaeef2;
        }
        .badge-paid { color: #116329; background: #dafbe1; }
        .badge-partial { color: var(--warning); background: #fff1e5; }
        .badge-pro { color: #ffffff; background: var(--brand-dark); }

        .order-list { display: grid; gap: 0.75rem; margin: 0; padding: 0; list-style: none; }
        .order-card { padding: 0.75rem 1rem; }
        .order-card h2 { margin: 0; font-size: 1.1rem; }
        .order-card p { margin: 0.25rem 0 0; }
        .order-card .order-id { color: var(--muted); }

        .actions { margin-top: 1.5rem; }

        /* Login */

        .login-form { display: grid; gap: 1rem; padding: 1.25rem; }
        .login-form .button { width: 100%; }
        """#
}
