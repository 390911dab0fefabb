/// The back office's one stylesheet, served at ``AdminPaths/stylesheet`` as `text/css`.
///
/// Written for the pages of ``AdminPages``: quiet and dense but readable, a system font stack and no
/// outside URLs, from 390 px phones (a table's rows become cards of labelled values there; on wider
/// screens a table too wide scrolls inside a labelled region that takes the keyboard's focus) to
/// desktops; focus always visible; text, badges and control borders at WCAG
/// 2.2 AA contrast; no motion for people who ask for less. Colours are named once as custom
/// properties at the top.
public enum AdminStylesheet {
    /// The stylesheet's text.
    public static let css = #"""
        :root {
          color-scheme: light;
          --ink: #1f2328;
          --muted: #57606a;
          --line: #d0d7de;
          --control: #6e7781;
          --page: #f6f8fa;
          --surface: #ffffff;
          --accent: #0b57d0;
          --accent-dark: #0842a0;
          --accent-tint: #e8f0fe;
          --good: #116329;
          --good-tint: #dafbe1;
          --warn: #7a4700;
          --warn-tint: #fff5d1;
          --bad: #a40e26;
          --bad-tint: #ffebe9;
          --neutral: #424a53;
          --neutral-tint: #eaeef2;
          --radius: 8px;
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
          font-size: 0.9375rem;
          line-height: 1.5;
          color: var(--ink);
          background: var(--page);
          -webkit-text-size-adjust: 100%;
        }

        img { max-width: 100%; height: auto; }

        a { color: var(--accent); text-underline-offset: 0.15em; }
        a:hover { color: var(--accent-dark); }

        :focus-visible {
          outline: 3px solid var(--accent);
          outline-offset: 2px;
        }

        h1, h2, h3 { line-height: 1.25; }
        h1 { font-size: 1.6rem; margin: 0.25rem 0 1rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.15rem; margin: 0 0 0.75rem; }
        h3 { font-size: 1rem; margin: 0 0 0.5rem; }

        code {
          font-family: var(--mono);
          font-size: 0.875em;
          padding: 0.05rem 0.3rem;
          background: var(--neutral-tint);
          border-radius: 4px;
          overflow-wrap: anywhere;
        }

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
          padding: 0.6rem 1rem;
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }
        .skip-link:focus { top: 0.5rem; }

        /* Header */

        .admin-header { background: var(--surface); border-bottom: 1px solid var(--line); }
        .header-inner {
          max-width: 80rem;
          margin: 0 auto;
          padding: 0.5rem 1rem;
          display: flex;
          flex-wrap: wrap;
          align-items: center;
          justify-content: space-between;
          gap: 0.25rem 1rem;
        }
        .brand { margin: 0; font-weight: 700; }
        .brand a { display: inline-flex; align-items: center; gap: 0.5rem; min-height: 2.5rem; color: var(--ink); text-decoration: none; }
        .brand a:hover .brand-shop { text-decoration: underline; }
        .brand-office {
          padding: 0.1rem 0.5rem;
          font-size: 0.8rem;
          font-weight: 600;
          color: var(--neutral);
          background: var(--neutral-tint);
          border-radius: 999px;
        }
        .account { display: flex; flex-wrap: wrap; align-items: center; gap: 0 0.75rem; }
        .signed-in { margin: 0; color: var(--muted); font-size: 0.875rem; overflow-wrap: anywhere; }
        .signed-in strong { color: var(--ink); font-weight: 600; }
        .logout { margin: 0; }
        .link-button {
          min-height: 2.5rem;
          padding: 0 0.5rem;
          font: inherit;
          font-weight: 600;
          color: var(--accent);
          background: none;
          border: 0;
          border-radius: 4px;
          text-decoration: underline;
          text-underline-offset: 0.15em;
          cursor: pointer;
        }
        .link-button:hover { color: var(--accent-dark); }

        .admin-nav { max-width: 80rem; margin: 0 auto; padding: 0 1rem; }
        .nav-links {
          display: flex;
          flex-wrap: wrap;
          gap: 0 0.25rem;
          margin: 0;
          padding: 0;
          list-style: none;
        }
        .nav-links a {
          display: inline-flex;
          align-items: center;
          min-height: 2.75rem;
          padding: 0 0.6rem;
          color: var(--muted);
          font-weight: 600;
          text-decoration: none;
          white-space: nowrap;
          border-bottom: 3px solid transparent;
        }
        .nav-links a:hover { color: var(--ink); border-bottom-color: var(--line); }
        .nav-links a[aria-current="page"] { color: var(--ink); border-bottom-color: var(--accent); }
        .nav-links a:focus-visible { outline-offset: -3px; }

        /* Page */

        .page {
          flex: 1 0 auto;
          width: 100%;
          max-width: 80rem;
          margin: 0 auto;
          padding: 1rem 1rem 3rem;
        }
        .admin-footer {
          border-top: 1px solid var(--line);
          padding: 1rem;
          color: var(--muted);
          font-size: 0.875rem;
          text-align: center;
        }
        .admin-footer p { margin: 0; }

        .breadcrumb { margin: 0 0 0.25rem; font-size: 0.875rem; }
        .page-heading {
          display: flex;
          flex-wrap: wrap;
          align-items: center;
          justify-content: space-between;
          gap: 0.5rem 1rem;
          margin-bottom: 1rem;
        }
        .page-heading h1 { margin: 0; }
        .heading-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0; }

        .panel {
          margin: 0 0 1rem;
          padding: 1rem;
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }

        .status, .notice {
          margin: 0 0 1rem;
          padding: 0.75rem 1rem;
          border-left: 4px solid var(--accent);
          border-radius: var(--radius);
          background: var(--accent-tint);
        }
        .status-success, .notice-success { border-color: var(--good); background: var(--good-tint); }
        .status-error, .notice-error { border-color: var(--bad); background: var(--bad-tint); }
        .notice h2 { font-size: 1.05rem; margin: 0 0 0.25rem; }
        .notice p { margin: 0.35rem 0; }
        .notice ul { margin: 0.5rem 0; padding-left: 1.25rem; }
        .notice .table-wrap { margin: 0.75rem 0; }

        .error-summary {
          margin: 0 0 1rem;
          padding: 0.75rem 1rem;
          background: var(--surface);
          border: 3px solid var(--bad);
          border-radius: var(--radius);
        }
        .error-summary h2 { margin: 0 0 0.35rem; font-size: 1.05rem; }
        .error-summary ul { margin: 0; padding-left: 1.25rem; }
        .error-summary a { color: var(--bad); font-weight: 600; }

        .hint { margin: 0 0 0.35rem; color: var(--muted); font-size: 0.875rem; }
        .quiet { color: var(--muted); }
        .narrow { max-width: 26rem; }
        .empty-state {
          padding: 1.5rem 1rem;
          text-align: center;
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }
        .empty-state p { margin: 0 0 0.75rem; }
        .empty-state p:last-child { margin: 0; }
        .list-count { margin: 0 0 0.5rem; color: var(--muted); font-size: 0.875rem; }

        .sku, .order-id, .tracking { font-family: var(--mono); font-size: 0.875em; overflow-wrap: anywhere; }

        /* Forms and buttons */

        .field { margin: 0 0 0.9rem; }
        .field > label { display: block; margin-bottom: 0.2rem; font-weight: 600; }
        input[type="text"], input[type="search"], input[type="email"], input[type="password"], input[type="number"],
        input[type="date"], input[type="datetime-local"], input[type="file"], select, textarea {
          display: block;
          width: 100%;
          max-width: 36rem;
          min-height: 2.5rem;
          padding: 0.4rem 0.6rem;
          font: inherit;
          color: var(--ink);
          background: var(--surface);
          border: 1px solid var(--control);
          border-radius: 6px;
        }
        input[type="file"] { padding: 0.35rem; }
        textarea { min-height: 8rem; resize: vertical; }
        .input-short { max-width: 14rem; }
        [aria-invalid="true"], input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"] {
          border: 2px solid var(--bad);
        }
        .field-error { margin: 0 0 0.35rem; color: var(--bad); font-weight: 600; font-size: 0.875rem; }
        .field-check {
          display: grid;
          grid-template-columns: auto 1fr;
          align-items: center;
          gap: 0.1rem 0.6rem;
        }
        .field-check input { width: 1.25rem; height: 1.25rem; margin: 0; accent-color: var(--accent); }
        .field-check label { font-weight: 600; }
        .field-check .hint, .field-check .field-error { grid-column: 2; margin: 0; }
        .field-row { display: grid; gap: 0 1rem; }
        @media (min-width: 40rem) {
          .field-row { grid-template-columns: repeat(2, minmax(0, 18rem)); }
        }

        .button {
          display: inline-flex;
          align-items: center;
          justify-content: center;
          min-height: 2.5rem;
          padding: 0.4rem 0.9rem;
          font: inherit;
          font-weight: 600;
          line-height: 1.2;
          color: var(--accent);
          text-align: center;
          text-decoration: none;
          white-space: nowrap;
          background: var(--surface);
          border: 1px solid var(--accent);
          border-radius: 6px;
          cursor: pointer;
        }
        .button:hover { color: var(--accent-dark); background: var(--accent-tint); }
        .button-primary { color: #ffffff; background: var(--accent); }
        .button-primary:hover { color: #ffffff; background: var(--accent-dark); }
        .button-danger { color: var(--bad); border-color: var(--bad); }
        .button-danger:hover { color: var(--bad); background: var(--bad-tint); }
        .button-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
        .inline-form { margin: 0; }

        @media (prefers-reduced-motion: no-preference) {
          .button, .link-button, .nav-links a { transition: background-color 0.15s ease, color 0.15s ease; }
        }
        @media (prefers-reduced-motion: reduce) {
          *, *::before, *::after {
            animation: none !important;
            transition: none !important;
            scroll-behavior: auto !important;
          }
        }

        .search-form { display: flex; flex-wrap: wrap; align-items: end; gap: 0.5rem 0.75rem; }
        .search-form .field { flex: 1 1 16rem; margin: 0; }
        .filter-form {
          display: grid;
          grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
          align-items: end;
          gap: 0.75rem;
        }
        .filter-form .field { margin: 0; }
        .filter-form .button-row { grid-column: 1 / -1; }
        /* On a phone the two dates share a line; the menus and the search keep the whole width, so
           that a chosen status ("Partially refunded") is never cut. */
        @media (max-width: 39.9375rem) {
          .filter-form { grid-template-columns: repeat(auto-fill, minmax(min(100%, 9.5rem), 1fr)); }
          .filter-form .field:has(select), .filter-form .field:has(input[type="search"]) { grid-column: 1 / -1; }
        }

        .login-form .button { width: 100%; }

        /* Tables */

        .table-wrap {
          margin: 0 0 1rem;
          overflow-x: auto;
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }
        .table-wrap:focus-visible { outline-offset: 0; }
        table.data {
          width: 100%;
          min-width: 34rem;
          border-collapse: collapse;
          font-variant-numeric: tabular-nums;
        }
        table.data caption {
          padding: 0.65rem 0.75rem 0.4rem;
          font-weight: 700;
          text-align: left;
        }
        table.data th, table.data td {
          padding: 0.45rem 0.75rem;
          text-align: left;
          vertical-align: top;
          border-top: 1px solid var(--line);
        }
        table.data thead th {
          color: var(--muted);
          font-size: 0.8125rem;
          font-weight: 600;
          white-space: nowrap;
          background: var(--page);
        }
        table.data tbody th { font-weight: 600; }
        table.data tbody tr:hover { background: #fbfcfd; }
        table.data .number, table.totals .number { text-align: right; white-space: nowrap; }
        table.data .prose { min-width: 10rem; max-width: 28rem; overflow-wrap: anywhere; }
        table.data tr.archived th, table.data tr.archived td, table.data tr.inactive th, table.data tr.inactive td {
          color: var(--muted);
          background: var(--page);
        }
        table.data tr.archived th a { color: var(--neutral); }
        table.data time, table.data .sku { white-space: nowrap; }
        .audit-table td.json { min-width: 12rem; max-width: 22rem; }
        .audit-table td.json code {
          display: block;
          padding: 0.25rem 0.4rem;
          white-space: pre-wrap;
          overflow-wrap: anywhere;
          word-break: break-word;
        }
        .action-words { display: block; }
        .action-code { font-size: 0.8em; color: var(--neutral); }
        .changes { margin: 0; padding-left: 1.1rem; }
        .old-value { text-decoration: line-through; color: var(--muted); }
        .arrow { color: var(--muted); }

        table.totals { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
        table.totals th { font-weight: 400; text-align: left; }
        table.totals th, table.totals td { padding: 0.35rem 0; border-bottom: 1px solid var(--line); }
        table.totals tr.total th, table.totals tr.total td { font-weight: 700; border-bottom: 0; border-top: 2px solid var(--ink); }

        .paging { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem; margin: 0.5rem 0 1rem; }
        .page-number { margin: 0; color: var(--muted); }

        .badge {
          display: inline-block;
          padding: 0.05rem 0.55rem;
          border-radius: 999px;
          font-size: 0.8125rem;
          font-weight: 600;
          white-space: nowrap;
          color: var(--neutral);
          background: var(--neutral-tint);
        }
        .badge-good { color: var(--good); background: var(--good-tint); }
        .badge-warn { color: var(--warn); background: var(--warn-tint); }
        .badge-bad { color: var(--bad); background: var(--bad-tint); }
        .badge-info { color: var(--accent-dark); background: var(--accent-tint); }
        .badge-muted { color: var(--neutral); background: var(--neutral-tint); }

        /* Dashboard and figures */

        .figures h2 { margin-bottom: 0.5rem; }
        .figure-list {
          display: grid;
          grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
          gap: 0.75rem;
          margin: 0;
        }
        .figure { padding: 0.75rem; background: var(--page); border-radius: var(--radius); }
        .figure dt { color: var(--muted); font-size: 0.875rem; font-weight: 600; }
        .figure dd { margin: 0; }
        .figure-value { font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .figure-link { font-size: 0.875rem; }
        .alert-list { margin: 0; padding-left: 1.1rem; }
        .alert-list li { padding: 0.15rem 0; }
        .stock-count { color: var(--warn); font-weight: 600; }
        @media (min-width: 48rem) {
          .stock-alert-row { display: grid; grid-template-columns: 1fr 1fr; gap: 0 0.75rem; align-items: start; }
        }

        /* Facts */

        .facts {
          display: grid;
          grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
          gap: 0.5rem 1rem;
          margin: 0 0 1rem;
          padding: 0.75rem 1rem;
          background: var(--surface);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }
        .facts dt { color: var(--muted); font-size: 0.8125rem; font-weight: 600; }
        .facts dd { margin: 0; overflow-wrap: anywhere; }

        /* Product and order */

        .product-layout, .order-layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 1rem; align-items: start; }
        @media (min-width: 64rem) {
          .product-layout { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
          .order-layout { grid-template-columns: minmax(0, 1fr) 22rem; }
        }
        .product-image { display: block; margin: 0 0 0.75rem; border: 1px solid var(--line); border-radius: var(--radius); }
        .stock-now { margin: 0 0 0.75rem; font-size: 1.05rem; }
        .stock-form { padding-top: 0.75rem; border-top: 1px solid var(--line); }
        .conflict table.data { min-width: 24rem; }

        .actions-panel .action-form { margin: 0 0 0.75rem; padding: 0 0 0.75rem; border-bottom: 1px solid var(--line); }
        .actions-panel .action-form:last-child { margin-bottom: 0; padding-bottom: 0; border-bottom: 0; }
        .cancel-form p { margin: 0 0 0.5rem; font-size: 0.875rem; }

        .timeline { margin: 0; padding: 0 0 0 1rem; list-style: none; border-left: 2px solid var(--line); }
        .timeline li { position: relative; padding: 0 0 0.6rem 0.5rem; }
        .timeline li::before {
          content: "";
          position: absolute;
          left: -1.4rem;
          top: 0.45rem;
          width: 0.6rem;
          height: 0.6rem;
          background: var(--accent);
          border: 2px solid var(--surface);
          border-radius: 50%;
        }
        .timeline-meta { display: block; color: var(--muted); font-size: 0.875rem; overflow-wrap: anywhere; }

        .refunds-table .refund-items { min-width: 9rem; margin: 0; padding: 0; list-style: none; }
        .refunds-table .refund-note, .refunds-table .refund-by {
          display: block;
          color: var(--muted);
          font-size: 0.875rem;
          overflow-wrap: anywhere;
        }
        .refunds-table .refund-failure { display: block; margin-top: 0.2rem; }
        .refunds-table .refund-asker { white-space: nowrap; }

        /* On a narrow screen a table's rows are cards: the row's heading on top, then each value
           after its column's heading (the cell's data-label). Nothing scrolls sideways. */
        @media (max-width: 39.9375rem) {
          table.data, .conflict table.data { display: block; min-width: 0; }
          table.data caption { display: block; }
          table.data thead {
            position: absolute;
            width: 1px;
            height: 1px;
            overflow: hidden;
            clip: rect(0 0 0 0);
            white-space: nowrap;
          }
          table.data tbody, table.data tbody tr { display: block; }
          table.data tbody tr { padding: 0.6rem 0.75rem; border-top: 1px solid var(--line); }
          table.data tbody th, table.data tbody td {
            display: block;
            padding: 0.15rem 0;
            text-align: left;
            border-top: 0;
            overflow-wrap: anywhere;
          }
          table.data tbody th { margin-bottom: 0.25rem; font-size: 1.05rem; }
          table.data tbody td { position: relative; padding-left: 8.5rem; min-height: 1.5rem; }
          table.data tbody td::before {
            content: attr(data-label);
            position: absolute;
            left: 0;
            width: 7.75rem;
            color: var(--muted);
            font-size: 0.875rem;
            line-height: 1.7;
            overflow-wrap: anywhere;
          }
          table.data tbody td:empty { display: none; }
          table.data .number { text-align: left; }
          table.data time, table.data .sku, table.data .refund-asker { white-space: normal; }
          table.data .prose, .audit-table td.json, .refunds-table .refund-items { min-width: 0; max-width: none; }
          table.data tr.archived, table.data tr.inactive { background: var(--page); }
        }

        /* Refunds */

        .refund-form { max-width: 48rem; }
        .refund-group { margin: 0 0 1rem; padding: 0; border: 0; min-width: 0; }
        .refund-group > legend { padding: 0; margin-bottom: 0.35rem; font-size: 1.05rem; font-weight: 700; }
        .refund-line {
          margin: 0 0 0.75rem;
          padding: 0.75rem;
          min-width: 0;
          background: var(--page);
          border: 1px solid var(--line);
          border-radius: var(--radius);
        }
        .refund-line > legend { float: left; width: 100%; padding: 0; margin: 0 0 0.5rem; font-weight: 700; overflow-wrap: anywhere; }
        .refund-line > legend + * { clear: both; }
        .refund-line .field { margin-bottom: 0.5rem; }
        .refund-line input[type="number"] { max-width: 8rem; }
        .refund-line .field:last-child { margin-bottom: 0; }
        .refund-line-title { margin: 0 0 0.25rem; overflow-wrap: anywhere; }
        .refund-line-done .hint { margin: 0; }
        @media (min-width: 40rem) {
          .refund-line { display: grid; grid-template-columns: minmax(0, 18rem) auto; align-items: end; gap: 0 1.5rem; }
          .refund-line > legend { grid-column: 1 / -1; }
          .refund-line .field { margin-bottom: 0; }
          .refund-line .field-check { min-height: 2.5rem; }
        }
        .refund-review { max-width: 48rem; }
        .confirm-form .hint { margin-bottom: 0.75rem; }

        .format-help ul { margin: 0; padding-left: 1.25rem; }
        .format-help li { margin: 0.2rem 0; }
        .problem-list li { margin: 0.15rem 0; }
        """#
}
