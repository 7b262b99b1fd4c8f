import Auth
import Core
import Foundation
import Students

/// A school ID card: who the holder is, where they study or work, and a QR payload the school
/// signed that a member of staff can check (`id-cards verify`, `POST /api/v1/id-cards/verify`).
public struct IdCard: Codable, Sendable, Equatable {
    public let userID: String
    public let givenName: String
    public let familyName: String
    public let email: String
    public let role: Role
    /// A student's GR number; staff have none.
    public let idNumber: String?
    public let section: LocalizedText?
    public let grade: LocalizedText?
    public let schoolID: String
    public let schoolName: LocalizedText
    public let qrPayload: String
    public let qrExpiresAt: Date
}

/// Whom a checked card belongs to.
public struct IdCardHolder: Codable, Sendable, Equatable {
    public let userID: String
    public let name: String
    public let role: Role
    public let idNumber: String?
    public let section: LocalizedText?
    public let validUntil: Date
}

enum IdCardPeople {
    /// The account, and the student record linked to it (nil for staff), read as the account itself.
    static func holder(userID: String, _ context: ActionContext) throws -> (User, Student?)? {
        guard let user = try UserAccounts.find(id: userID, in: context), user.status == .active else { return nil }
        let student = user.role == .student ? try linkedStudent(userID: userID, context) : nil
        return (user, student)
    }

    /// The student record whose account is `userID` (read through Students' public function).
    static func linkedStudent(userID: String, _ context: ActionContext) throws -> Student? {
        try Roster.student(accountID: userID, context)
    }

    /// A staff name split at its first space, as the contract's sign-in answer splits it.
    static func split(_ name: String) -> (String, String) {
        guard let space = name.firstIndex(of: " ") else { return (name, "") }
        return (String(name[..<space]), String(name[name.index(after: space)...]))
    }
}

/// The signed-in student's or staff member's own card. The first card of a school makes its
/// signing key, so this action writes.
public struct ShowIdCard: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "id-cards.show"
    public static let permission = IdCardsPermissions.own

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> IdCard {
        guard let holder = try IdCardPeople.holder(userID: context.principal.userID, context) else { throw IdCardsError.invalidCard }
        let (user, student) = holder
        let names = student.map { ($0.givenName, $0.surname) } ?? IdCardPeople.split(user.displayName)
        let issued = Int(context.now.timeIntervalSince1970)
        let claims = IdCardClaims(iss: IdCardClaims.issuer, sch: context.school.id, sub: user.id, role: user.role.rawValue, num: student?.grNumber,
                                  iat: issued, exp: issued + Int(IdCardClaims.lifetime))
        context.auditDetail = "card for \(user.id)"
        return IdCard(userID: user.id, givenName: names.0, familyName: names.1, email: user.email, role: user.role, idNumber: student?.grNumber,
                      section: student?.className, grade: student?.yearLevelName, schoolID: context.school.id, schoolName: context.school.name,
                      qrPayload: try IdCardSigning.sign(claims, context), qrExpiresAt: Date(timeIntervalSince1970: TimeInterval(claims.exp)))
    }
}

/// Checks a card's QR payload: this school signed it, it is unchanged and unexpired, and its
/// holder's account is still active. Anything else is one refusal, `invalidCard`.
public struct VerifyIdCard: Action {
    public struct Input: Codable, Sendable {
        public var payload: String
        public init(payload: String) { self.payload = payload }
    }

    public static let id = "id-cards.verify"
    public static let permission = IdCardsPermissions.verify
    public static let isReadOnly = true

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        // A pasted code often ends in a line break; the code itself never holds one.
        try TextInput.check(input.payload.trimmingCharacters(in: .whitespacesAndNewlines), field: "payload", maxLength: 2_000)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> IdCardHolder {
        let claims = try IdCardSigning.verify(input.payload.trimmingCharacters(in: .whitespacesAndNewlines), context)
        guard let holder = try IdCardPeople.holder(userID: claims.sub, context) else { throw IdCardsError.invalidCard }
        let (user, student) = holder
        return IdCardHolder(userID: user.id, name: student?.fullName ?? user.displayName, role: user.role, idNumber: student?.grNumber,
                            section: student?.className, validUntil: Date(timeIntervalSince1970: TimeInterval(claims.exp)))
    }
}
