import Foundation

/// The product images shipped with the store (small SVG files), read once and served from memory.
public enum ProductImages {
    /// Every image by file name (`water-bottle.svg`), with its bytes.
    public static func load() throws -> [String: [UInt8]] {
        guard let directory = Bundle.module.url(forResource: "images", withExtension: nil) else { return [:] }
        var images: [String: [UInt8]] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        where file.pathExtension == "svg" {
            images[file.lastPathComponent] = Array(try Data(contentsOf: file))
        }
        return images
    }
}
