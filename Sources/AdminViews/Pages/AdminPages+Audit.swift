import HTML

extension AdminPages {
    /// The audit log at `/admin/audit`, newest first: when, who, the action in words with its code,
    /// the subject, and the values before and after (short JSON, as code); **Older entries**, and
    /// **Export** to CSV. A member of staff who is not an owner is told they see only their own.
    public static func audit(_ page: AdminAuditPage, context: AdminContext) -> HTMLDocument {
        let rows = page.entries.map { entry in
            AdminTables.Row(
                [],
                .heading(context.time(entry.at, short: true)),
                .init(entry.actor),
                .init(
                    .fragment(
                        .span([.class("action-words")], AdminAuditPage.describe(action: entry.action)),
                        .text(" "),
                        .code([.class("action-code")], entry.action))),
                .init(.code([], entry.subject)),
                .init(entry.before.map { .code([], $0) } ?? .empty, class: "json"),
                .init(entry.after.map { .code([], $0) } ?? .empty, class: "json"))
        }
        let list: Node =
            page.entries.isEmpty
            ? AdminTables.empty(page.isOlderPage ? "There are no older entries." : "The log has no entries yet.")
            : AdminTables.table(
                id: "audit", caption: "Audit entries, newest first (times in \(context.zoneName))",
                columns: [
                    .init("When"), .init("Who"), .init("Action"), .init("Subject"), .init("Before"), .init("After"),
                ],
                rows: rows, class: "audit-table")
        let older = page.hasOlder ? page.entries.last.map { AdminPaths.audit(before: $0.id) } : nil
        let paging: Node =
            older == nil && !page.isOlderPage
            ? .empty
            : .nav(
                [.class("paging"), .ariaLabel("Pages of the audit log")],
                page.isOlderPage ? .a([.href(AdminPaths.audit), .class("button")], "Newest entries") : .empty,
                older.map { .a([.href($0), .rel("next"), .class("button")], "Older entries") } ?? .empty)
        return AdminLayout.document(
            title: "Audit log", context: context, section: .audit,
            .div(
                [.class("page-heading")],
                .h1("Audit log"),
                .p([.class("heading-actions")], .a([.href(AdminPaths.exportAudit), .class("button")], "Export"))),
            page.scope == .own
                ? .p(
                    [.class("notice")],
                    "You see only your own entries. An owner sees everyone's.")
                : .empty,
            list,
            paging)
    }
}
