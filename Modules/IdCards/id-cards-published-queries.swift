import Core
import Foundation

/// Named queries ID cards answers for modules that do not depend on it (Attendance checks a
/// student in by their card where ID cards are on). Their shapes are a contract: a field is never
/// renamed or removed under the same name; `AttendanceCardCheckInTests` asks it end to end.
enum IdCardsPublishedQueries {
    static let all: [NamedQueryProvider] = [
        NamedQueryProvider(CardHolderQuery.self, permission: IdCardsPermissions.verify) { request, context in
            try CardHolderQuery.answer(request, context)
        },
    ]
}

/// Whose card a scanned QR payload is: the account of a card this school signed, unchanged,
/// unexpired, whose holder is still active. Any other payload has no holder, for one refusal.
public enum CardHolderQuery: NamedQuery {
    public static let name = "id-cards.holder"

    public struct Request: Codable, Sendable {
        public var payload: String
        public init(payload: String) { self.payload = payload }
    }

    public struct Answer: Codable, Sendable, Equatable {
        /// The holder's account id; nil for a payload that is not a valid card of this school.
        public var userID: String?
    }

    static func answer(_ request: Request, _ context: ActionContext) throws -> Answer {
        let claims: IdCardClaims
        do {
            claims = try IdCardSigning.verify(request.payload.trimmingCharacters(in: .whitespacesAndNewlines), context)
        } catch IdCardsError.invalidCard {
            return Answer(userID: nil)
        }
        return Answer(userID: try IdCardPeople.holder(userID: claims.sub, context)?.0.id)
    }
}
