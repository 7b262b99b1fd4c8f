import Core
import Foundation

/// An invitation's link: `/invitation?token=<school id>.<secret>`, 14 days, one use. Only the
/// secret's SHA-256 is stored (32 random bytes need no slow hash); the school id in front tells
/// the page which school to look in.
public enum InvitationPolicy {
    public static let lifetime: TimeInterval = 14 * 24 * 3600
    public static let path = "/invitation"

    static func newSecret() -> String { SessionPolicy.newToken() }

    static func hash(_ secret: String) -> String { SessionPolicy.hash(secret) }

    /// The school and the secret of a token, nil when it is not one.
    public static func parts(of token: String) -> (school: SchoolID, secret: String)? {
        let pieces = token.split(separator: ".", maxSplits: 1).map(String.init)
        guard pieces.count == 2, !pieces[0].isEmpty, pieces[1].count >= 40, pieces[1].count <= 64,
              pieces[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        return (pieces[0], pieces[1])
    }
}
