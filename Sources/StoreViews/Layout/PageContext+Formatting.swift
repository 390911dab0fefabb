import Foundation

/// The pages write money, times and numbers as ``LocaleFormatting`` does, for the request's locale.
extension PageContext: LocaleFormatting {
    /// A lower-case name from the catalog or the provider, for people: `apparel` → `Apparel`,
    /// `visa` → `Visa`.
    func displayName(_ name: String) -> String {
        name.prefix(1).uppercased(with: locale) + name.dropFirst()
    }
}
