import Core

public enum IdCardsError: HogwartsError, Equatable {
    /// A QR payload that this school did not sign, was changed, has expired, or names an account
    /// that is gone or suspended: one answer for all, so a forger learns nothing.
    case invalidCard

    public var messageKey: String {
        switch self {
        case .invalidCard: "id-cards.error.invalid-card"
        }
    }

    public var exitStatus: ExitStatus { .invalidData }
}
