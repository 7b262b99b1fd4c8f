import Core

/// A mail Auth needs sent to one of its accounts (a password reset code, an invitation), already written in the
/// recipient's language. Auth names no mail system and no other module's tables: the module that
/// delivers email (Notifications) handles this event where it is on; where none is, nothing is
/// sent and the person asks their school instead.
public struct AccountMailRequested: DomainEvent, Equatable {
    public static let name = "auth.account-mail-requested"
    public let userID: String
    public let email: String
    public let displayName: String
    public let language: Language
    /// What the mail is for (`password-reset`): it says why the person receives it.
    public let kind: String
    public let subject: String
    /// The body; `{link}` in it stands for `linkPath` on the school's site (Auth does not know the
    /// site's address: the mail module does).
    public let text: String
    public let linkPath: String?

    public init(userID: String, email: String, displayName: String, language: Language, kind: String, subject: String, text: String,
                linkPath: String? = nil) {
        self.userID = userID
        self.email = email
        self.displayName = displayName
        self.language = language
        self.kind = kind
        self.subject = subject
        self.text = text
        self.linkPath = linkPath
    }
}
