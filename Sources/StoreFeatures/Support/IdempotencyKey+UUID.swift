import CheckoutKit
import Foundation

extension IdempotencyKey {
    /// A fresh key made of a random UUID (version 4), the app's default key generator.
    public static func uuid() -> IdempotencyKey {
        // A UUID's text is always 36 visible ASCII characters, so the fallback is never taken.
        IdempotencyKey(rawValue: UUID().uuidString.lowercased()) ?? .random()
    }
}
