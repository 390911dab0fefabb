import Foundation
import HTML
import Testing

/// Compares a rendered page with its snapshot in `__Snapshots__/NAME.html`.
///
/// The snapshots are the pages' specification: read them when they change. Run the tests with
/// `STORE_RECORD_SNAPSHOTS=1` to write every snapshot anew; a missing snapshot is written and
/// reported as a failure, so a new page is never passed silently.
func expectSnapshot(
    _ document: HTMLDocument, named name: String, sourceLocation: SourceLocation = #_sourceLocation
)
    throws
{
    try expectSnapshot(text: document.renderString(), file: "\(name).html", sourceLocation: sourceLocation)
}

/// Compares `text` with the snapshot file `__Snapshots__/FILE`, byte for byte; recorded the same
/// way as the pages.
func expectSnapshot(
    text actual: String, file name: String, sourceLocation: SourceLocation = #_sourceLocation
)
    throws
{
    let file = Snapshots.directory.appendingPathComponent(name)
    let recording = ProcessInfo.processInfo.environment["STORE_RECORD_SNAPSHOTS"] == "1"
    guard !recording, FileManager.default.fileExists(atPath: file.path) else {
        try FileManager.default.createDirectory(at: Snapshots.directory, withIntermediateDirectories: true)
        try Data(actual.utf8).write(to: file)
        if !recording {
            Issue.record("Recorded a new snapshot \(name); check it and run again", sourceLocation: sourceLocation)
        }
        return
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    guard actual != expected else { return }
    Issue.record(
        """
        \(name) differs (rerun with STORE_RECORD_SNAPSHOTS=1 to accept the change):
        \(Snapshots.firstDifference(expected: expected, actual: actual))
        """, sourceLocation: sourceLocation)
}

enum Snapshots {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")

    /// The first line that differs, with its number, to make a failure readable.
    static func firstDifference(expected: String, actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let old = index < expectedLines.count ? String(expectedLines[index]) : "(end)"
            let new = index < actualLines.count ? String(actualLines[index]) : "(end)"
            if old != new { return "line \(index + 1)\n- \(old)\n+ \(new)" }
        }
        return "(no difference found)"
    }
}
