import AdminViews
import Testing

@Suite struct AdminPagesTests {}
