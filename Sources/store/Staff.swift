import CheckoutKit
import Foundation
import StoreCrypto
import StoreDatabase
import StoreServices

#if canImport(Glibc)
import Glibc
#endif

/// `store staff add`: a member of staff added from the shop's own machine — the way a real shop
/// (`store serve --no-demo-data`) gets its first owner.
func addStaff(_ options: StoreCommand.AddStaffOptions) async throws {
    guard let role = StaffRole(rawValue: options.role) else { throw StartError("unknown role \(options.role)") }
    let password = try options.passwordFromStandardInput ? passwordFromStandardInput() : passwordFromTerminal()
    let database = try await StoreDatabase.open(url: options.database, seed: false)
    do {
        let staff = try await StaffService.add(
            email: options.email, role: role, password: password, by: .commandLine, database: database,
            hasher: .interactive, now: Date())
        await database.close()
        print("added \(staff.email) (\(staff.role.rawValue))")
    } catch {
        await database.close()
        switch error {
        case StaffInputError.invalidEmail: throw StartError("\(options.email) is not an email address")
        case StaffInputError.passwordTooShort:
            throw StartError("a password has at least \(StaffService.minimumPasswordLength) characters")
        case StaffChangeError.emailTaken: throw StartError("a member of staff has that email already")
        default: throw error
        }
    }
}

/// The first line of standard input, without its line end.
private func passwordFromStandardInput() throws -> String {
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw StartError("--password-stdin: standard input has no password line")
    }
    return line
}

/// A password typed at the terminal, twice, without echo.
private func passwordFromTerminal() throws -> String {
    guard isatty(STDIN_FILENO) == 1 else {
        throw StartError("no terminal to ask for the password on: give it with --password-stdin")
    }
    func ask(_ prompt: String) -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true) ?? ""
    }
    let password = ask("Password: ")
    guard ask("Again: ") == password else { throw StartError("the two passwords differ") }
    return password
}
