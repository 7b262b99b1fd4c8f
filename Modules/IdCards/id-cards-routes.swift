import Core
import Foundation

/// `GET /api/mobile/idcard` (the contract's §2) and `POST /api/v1/id-cards/verify` for staff
/// who scan a card.
enum IdCardsRoutes {
    static var all: [APIRoute] { [card, verify] }

    static let userFields: [(String, APISchema)] = [
        ("id", .id), ("given_name", .text), ("family_name", .text), ("email", .nullable(.text)), ("role", .values(of: Role.self)),
        ("photo_url", .nullable(.text)), ("id_number", .nullable(.text)), ("blood_group", .nullable(.text)), ("section", .nullable(.text)),
        ("grade", .nullable(.text)), ("department", .nullable(.text)), ("position", .nullable(.text)),
    ]

    static let schoolFields: [(String, APISchema)] = [
        ("id", .id), ("name", .text), ("name_en", .text), ("logo_url", .nullable(.text)), ("address", .nullable(.text)),
        ("phone", .nullable(.text)), ("email", .nullable(.text)), ("website", .nullable(.text)),
    ]

    /// We keep no photo, blood group, department, position, logo or school address: those are null.
    static var card: APIRoute {
        APIRoute(.get, "/api/mobile/idcard", summary: "The signed-in student's or staff member's ID card, with a signed QR payload",
                 response: .object([("user", .object(userFields)), ("school", .nullable(.object(schoolFields))), ("qr_payload", .text),
                                    ("qr_expires_at", .dateTime)])) { request in
            let card = try await request.run(ShowIdCard.self, .init())
            let language = request.language
            return try .json(APIValue.object([
                "user": .object([
                    "id": .string(card.userID), "given_name": .string(card.givenName), "family_name": .string(card.familyName),
                    "email": .string(card.email), "role": .string(card.role.rawValue), "photo_url": .null, "id_number": .optional(card.idNumber),
                    "blood_group": .null, "section": .optional(card.section?.text(in: language)), "grade": .optional(card.grade?.text(in: language)),
                    "department": .null, "position": .null,
                ]),
                "school": .object([
                    "id": .string(card.schoolID), "name": .string(card.schoolName.ar), "name_en": .string(card.schoolName.en), "logo_url": .null,
                    "address": .null, "phone": .null, "email": .null, "website": .null,
                ]),
                "qr_payload": .string(card.qrPayload), "qr_expires_at": .string(ContractInstant.text(card.qrExpiresAt)),
            ]))
        }
    }

    struct Scan: Decodable {
        let payload: String
    }

    static var verify: APIRoute {
        APIRoute(.post, "/api/v1/id-cards/verify", summary: "Checks a scanned ID card's QR payload and names its holder",
                 body: .object([("payload", .string(maxLength: 2_000))]),
                 response: .object([("user_id", .id), ("name", .text), ("role", .values(of: Role.self)), ("id_number", .nullable(.text)),
                                    ("section", .nullable(.text)), ("valid_until", .dateTime)])) { request in
            let scan = try request.decode(Scan.self)
            let holder = try await request.run(VerifyIdCard.self, .init(payload: scan.payload))
            return try .json(APIValue.object([
                "user_id": .string(holder.userID), "name": .string(holder.name), "role": .string(holder.role.rawValue),
                "id_number": .optional(holder.idNumber), "section": .optional(holder.section?.text(in: request.language)),
                "valid_until": .string(ContractInstant.text(holder.validUntil)),
            ]))
        }
    }
}

/// A `toISOString()` instant, as the contract sends dates: `2027-11-28T05:00:00.000Z`.
enum ContractInstant {
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
