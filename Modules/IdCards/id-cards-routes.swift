import Core
import Foundation

/// `GET /api/mobile/idcard` (the contract's §2) and `POST /api/v1/id-cards/verify` for staff
/// who scan a card.
enum IdCardsRoutes {
    static var all: [APIRoute] { [card, verify] }

    /// The card's holder; we keep no photo, blood group, department or position: those are null.
    struct CardUser: Codable, Sendable {
        let id: String
        let givenName: String
        let familyName: String
        let email: Nullable<String>
        let role: Role
        let photoUrl: Nullable<String>
        let idNumber: Nullable<String>
        let bloodGroup: Nullable<String>
        let section: Nullable<String>
        let grade: Nullable<String>
        let department: Nullable<String>
        let position: Nullable<String>
    }

    /// The school on the card; we keep no logo, address, phone, email or website: those are null.
    struct CardSchool: Codable, Sendable {
        let id: String
        let name: String
        let nameEn: String
        let logoUrl: Nullable<String>
        let address: Nullable<String>
        let phone: Nullable<String>
        let email: Nullable<String>
        let website: Nullable<String>
    }

    struct CardBody: Codable, Sendable {
        let user: CardUser
        let school: CardSchool
        let qrPayload: String
        let qrExpiresAt: Date
    }

    static var card: APIRoute {
        APIRoute(.get, "/api/mobile/idcard", summary: "The signed-in student's or staff member's ID card, with a signed QR payload",
                 response: .of(CardBody.self)) { request in
            let card = try await request.run(ShowIdCard.self, .init())
            let language = request.language
            let none = Nullable<String>(nil)
            return try .json(CardBody(
                user: CardUser(id: card.userID, givenName: card.givenName, familyName: card.familyName, email: Nullable(card.email), role: card.role,
                               photoUrl: none, idNumber: Nullable(card.idNumber), bloodGroup: none, section: Nullable(card.section?.text(in: language)),
                               grade: Nullable(card.grade?.text(in: language)), department: none, position: none),
                school: CardSchool(id: card.schoolID, name: card.schoolName.ar, nameEn: card.schoolName.en, logoUrl: none, address: none,
                                   phone: none, email: none, website: none),
                qrPayload: card.qrPayload, qrExpiresAt: card.qrExpiresAt))
        }
    }

    struct Scan: Decodable {
        let payload: String
    }

    struct HolderBody: Codable, Sendable {
        let userId: String
        let name: String
        let role: Role
        let idNumber: Nullable<String>
        let section: Nullable<String>
        let validUntil: Date
    }

    static var verify: APIRoute {
        APIRoute(.post, "/api/v1/id-cards/verify", summary: "Checks a scanned ID card's QR payload and names its holder",
                 body: .object([("payload", .string(maxLength: 2_000))]),
                 response: .of(HolderBody.self)) { request in
            let scan = try request.decode(Scan.self)
            let holder = try await request.run(VerifyIdCard.self, .init(payload: scan.payload))
            return try .json(HolderBody(userId: holder.userID, name: holder.name, role: holder.role, idNumber: Nullable(holder.idNumber),
                                        section: Nullable(holder.section?.text(in: request.language)), validUntil: holder.validUntil))
        }
    }
}
