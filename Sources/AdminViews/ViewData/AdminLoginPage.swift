/// The staff sign-in form at `/admin/login`: **Email**, **Password**, **Log in**.
public struct AdminLoginPage: Hashable, Sendable {
    /// Why the last attempt failed.
    public enum Problem: Hashable, Sendable {
        /// The email or the password is wrong; the same answer whether the email exists or not.
        case wrongCredentials
        /// Too many failed attempts: signing in works again after this many seconds.
        case tooManyAttempts(retryAfterSeconds: Int)
    }

    /// The email typed last time, put back after a failed attempt.
    public var email: String
    public var problem: Problem?
    /// The back-office page that asked for a sign-in, to return to after it (sent back in the
    /// hidden `next` field); `nil` for the dashboard.
    public var next: String?

    public init(email: String = "", problem: Problem? = nil, next: String? = nil) {
        self.email = email
        self.problem = problem
        self.next = next
    }
}

extension AdminLoginPage.Problem {
    /// "The email or password is incorrect." or "Too many attempts. Try again in 5 minutes."
    public var message: String {
        switch self {
        case .wrongCredentials:
            return "The email or password is incorrect."
        case .tooManyAttempts(let seconds):
            let wait: String
            if seconds <= 60 {
                let seconds = max(1, seconds)
                wait = seconds == 1 ? "1 second" : "\(seconds) seconds"
            } else {
                let minutes = (seconds + 59) / 60
                wait = minutes == 1 ? "1 minute" : "\(minutes) minutes"
            }
            return "Too many attempts. Try again in \(wait)."
        }
    }
}
