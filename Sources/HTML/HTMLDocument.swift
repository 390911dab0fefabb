/// A whole HTML page: the `<!doctype html>` line followed by its root `<html>` element.
///
/// Rendering is cheap and allocation-light: one byte buffer, grown once or twice for a typical
/// page, escaping text as it is copied in.
public struct HTMLDocument: Sendable {
    /// The `<html>` element.
    public let root: Node

    /// The `Content-Type` to send a rendered document with.
    public static let contentType = "text/html; charset=utf-8"

    public init(_ root: Node) {
        self.root = root
    }

    /// The page as UTF-8 bytes, ready to be sent as `text/html; charset=utf-8`.
    public func render() -> [UInt8] {
        var renderer = HTMLRenderer(capacity: 16 * 1024)
        renderer.append("<!doctype html>")
        renderer.write(root)
        renderer.append("\n")
        return renderer.bytes
    }

    /// The page as a string, for tests.
    public func renderString() -> String {
        String(decoding: render(), as: UTF8.self)
    }
}
