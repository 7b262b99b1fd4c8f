import Core

public enum AuthError: HogwartsError, Equatable {
    /// Wrong password, unknown email, suspended or locked: one message, so nobody can probe accounts.
    case signInRefused
    case notSignedIn
    case sessionExpired
    case weakPassword(String)
    case invalidEmail(String)
    case emailTaken(String)
    case unknownUser(String)
    /// The signed-in person's own account is gone or suspended (their profile cannot be shown).
    case noAccount
    case chooseSchool([String])
    case passwordUnreadable
    /// An invitation link that is wrong, used, expired, or for a suspended account: all alike.
    case invitationInvalid
    /// A command named a school other than the one the session belongs to.
    case otherSchool(signedIn: String, requested: String)

    public var messageKey: String {
        switch self {
        case .signInRefused: "auth.error.sign-in-refused"
        case .notSignedIn: "auth.error.not-signed-in"
        case .sessionExpired: "auth.error.session-expired"
        case .weakPassword(let rule): "auth.error.weak-password.\(rule)"
        case .invalidEmail: "auth.error.invalid-email"
        case .emailTaken: "auth.error.email-taken"
        case .unknownUser: "auth.error.unknown-user"
        case .noAccount: "auth.error.no-account"
        case .chooseSchool: "auth.error.choose-school"
        case .passwordUnreadable: "auth.error.password-unreadable"
        case .otherSchool: "auth.error.other-school"
        case .invitationInvalid: "auth.error.invitation-invalid"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .invalidEmail(let email), .emailTaken(let email), .unknownUser(let email): ["email": email]
        case .chooseSchool(let schools): ["schools": schools.joined(separator: ", ")]
        case .weakPassword: ["minimum": String(PasswordRules.minimumLength), "maximum": String(PasswordRules.maximumBytes)]
        case .otherSchool(let signedIn, let requested): ["school": signedIn, "requested": requested]
        default: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .signInRefused, .notSignedIn, .sessionExpired: .permissionDenied
        case .weakPassword, .invalidEmail, .passwordUnreadable: .invalidData
        case .emailTaken: .conflict
        case .unknownUser, .noAccount, .invitationInvalid: .notFound
        case .chooseSchool, .otherSchool: .usage
        }
    }
}
