import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import IdCards
import Students
import Testing

@Suite("IdCards module")
struct IdCardsTests {
    /// A school with a class 7A (taught by t7a), a student account linked to GR-1, a guardian of
    /// GR-1, and another school with a student account of its own.
    struct Setup: @unchecked Sendable {
        let harness: TestHarness
        let student: Principal
        let teacher: Principal
        let guardian: Principal
        let otherStudent: Principal
        let otherSchool: School

        init() throws {
            harness = try TestHarness(modules: [AuthModule(), StudentsModule(), IdCardsModule()],
                                      clock: { Date(timeIntervalSince1970: 1_795_000_000) })
            let admin = harness.user(.admin)
            try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: harness.school.id, by: admin)
            teacher = try Self.account("Amal Haddad", "t7a@school.org", .teacher, in: harness.school, harness)
            student = try Self.account("pupil", "pupil@school.org", .student, in: harness.school, harness)
            guardian = try Self.account("mum", "mum@family.org", .guardian, in: harness.school, harness)
            try Self.roster(in: harness.school, teacher: "t7a@school.org", student: "pupil@school.org", gr: "GR-1", harness)
            try harness.kernel.run(LinkGuardian.self, .init(grNumber: "GR-1", givenName: "Hala", surname: "Osman", email: "mum@family.org",
                                                            relation: .mother), as: admin, in: harness.school.id)
            otherSchool = try harness.makeSchool("other-school")
            try harness.kernel.setSetting("auth.password-hash-cost", to: "10", for: otherSchool.id, by: harness.user(.admin, in: otherSchool))
            otherStudent = try Self.account("far", "far@other.org", .student, in: otherSchool, harness)
            _ = try Self.account("Other Teacher", "t@other.org", .teacher, in: otherSchool, harness)
            try Self.roster(in: otherSchool, teacher: "t@other.org", student: "far@other.org", gr: "GR-1", harness)
        }

        static func account(_ name: String, _ email: String, _ role: Role, in school: School, _ harness: TestHarness) throws -> Principal {
            let user = try harness.kernel.run(CreateUser.self, .init(email: email, displayName: name, role: role, password: "Corr3ct-Horse"),
                                              as: harness.user(.admin, in: school), in: school.id)
            return Principal(userID: user.id, role: role, schoolID: school.id, displayName: name)
        }

        static func roster(in school: School, teacher: String, student: String, gr: String, _ harness: TestHarness) throws {
            let admin = harness.user(.admin, in: school)
            func run<A: Action>(_ action: A.Type, _ input: A.Input) throws { _ = try harness.kernel.run(action, input, as: admin, in: school.id) }
            try run(CreateSchoolYear.self, .init(name: "2026-2027", startsOn: "2026-09-01", endsOn: "2027-06-30"))
            try run(CreateYearLevel.self, .init(code: "G7", name: LocalizedText(ar: "السابع", en: "Grade 7"), position: 1))
            try run(CreateClass.self, .init(code: "7A", name: LocalizedText(ar: "السابع أ", en: "7-A"), yearLevel: "G7", homeroomTeacherEmail: teacher))
            try run(CreateStudent.self, StudentFields(grNumber: gr, givenName: "Sara", surname: "Osman", nameLanguage: "en", dateOfBirth: "2013-05-04",
                                                      gender: "FEMALE", enrolledOn: "2026-09-01", classCode: "7A"))
            try run(LinkStudentAccount.self, .init(grNumber: gr, email: student))
        }
    }

    static let english = ["Accept-Language": "en"]

    @Test("every string exists in Arabic and English")
    func strings() {
        let catalog = IdCardsModule().strings
        #expect(catalog.text("id-cards.module.name", in: .en) != nil, "the catalog loaded from the module's resources")
        #expect(catalog.missingTranslations.isEmpty)
    }

    @Test("the tables the module declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: IdCardsModule())
        #expect(mismatches.undeclared.isEmpty, "add them to ownedTables (or publishedViews)")
        #expect(mismatches.notCreated.isEmpty)
    }

    // MARK: The contract's shape

    struct ContractUser: Decodable {
        let id: String
        let given_name: String
        let family_name: String
        let email: String?
        let role: String
        let photo_url: String?
        let id_number: String?
        let blood_group: String?
        let section: String?
        let grade: String?
        let department: String?
        let position: String?
    }

    struct ContractSchool: Decodable {
        let id: String
        let name: String
        let name_en: String
        let logo_url: String?
        let address: String?
        let phone: String?
        let email: String?
        let website: String?
    }

    /// `GET /idcard` (§2), plus the signed QR payload and its expiry as an ISO 8601 instant.
    struct ContractCard: Decodable {
        let user: ContractUser
        let school: ContractSchool?
        let qr_payload: String
        let qr_expires_at: Date
    }

    static func decoder() -> JSONDecoder { ContractJSON.decoder() }

    @Test("a student's card decodes with the contract's fields: their GR number, class and year level, the school, a signed QR payload")
    func studentCard() async throws {
        let setup = try Setup()
        try await setup.harness.api { api in
            let answer = try await api.get("/api/mobile/idcard", as: setup.student, headers: Self.english)
            #expect(answer.status == 200)
            let card = try Self.decoder().decode(ContractCard.self, from: answer.body)
            #expect(card.user.given_name == "Sara" && card.user.family_name == "Osman" && card.user.role == "STUDENT")
            #expect(card.user.id_number == "GR-1" && card.user.section == "7-A" && card.user.grade == "Grade 7")
            #expect(card.school?.id == setup.harness.school.id)
            #expect(card.qr_payload.split(separator: ".").count == 3, "a compact JWS")
            #expect(card.qr_expires_at > Date(timeIntervalSince1970: 1_795_000_000))
        }
    }

    @Test("a teacher's card: the account's name split at its first space, no number, no class")
    func staffCard() async throws {
        let setup = try Setup()
        try await setup.harness.api { api in
            let card = try Self.decoder().decode(ContractCard.self, from: try await api.get("/api/mobile/idcard", as: setup.teacher).body)
            #expect(card.user.given_name == "Amal" && card.user.family_name == "Haddad" && card.user.id_number == nil && card.user.section == nil)
        }
    }

    @Test("no token is 401; a guardian, who has no card, is 403 and gets no child's card")
    func refusals() async throws {
        let setup = try Setup()
        try await setup.harness.api { api in
            let answer1 = try await api.get("/api/mobile/idcard")
            #expect(answer1.status == 401)
            let guardian = try await api.get("/api/mobile/idcard", as: setup.guardian)
            #expect(guardian.status == 403 && !guardian.text.contains("GR-1") && !guardian.text.contains("Sara"))
        }
    }

    // MARK: Checking a card

    @Test("staff check a card and see its holder; a changed payload is refused, and nothing names anyone")
    func verify() async throws {
        let setup = try Setup()
        try await setup.harness.api { api in
            let card = try Self.decoder().decode(ContractCard.self, from: try await api.get("/api/mobile/idcard", as: setup.student).body)
            let checked = try await api.post("/api/v1/id-cards/verify", as: setup.teacher, json: ["payload": card.qr_payload])
            #expect(checked.status == 200 && checked.object["name"] as? String == "Sara Osman" && checked.object["id_number"] as? String == "GR-1")

            var changed = Array(card.qr_payload)
            let middle = card.qr_payload.split(separator: ".")[0].count + 5
            changed[middle] = changed[middle] == "A" ? "B" : "A"
            let tampered = try await api.post("/api/v1/id-cards/verify", as: setup.teacher, json: ["payload": String(changed)], headers: Self.english)
            #expect(tampered.status == 400 && tampered.code == "ID_CARDS_INVALID_CARD" && !tampered.text.contains("Sara"))
            let garbage = try await api.post("/api/v1/id-cards/verify", as: setup.teacher, json: ["payload": "a.b.c"], headers: Self.english)
            #expect(tampered.refusal(asked: []) == garbage.refusal(asked: []))

            let answer2 = try await api.post("/api/v1/id-cards/verify", as: setup.student, json: ["payload": card.qr_payload])
            #expect(answer2.status == 403)
            let answer3 = try await api.post("/api/v1/id-cards/verify", as: setup.teacher, json: ["payload": 7])
            #expect(answer3.status == 400)
        }
    }

    @Test("another school's card reads exactly like a forged one, in either direction")
    func foreignSchool() async throws {
        let setup = try Setup()
        let otherTeacher = try setup.harness.kernel.run(ListUsers.self, .init(), as: setup.harness.user(.admin, in: setup.otherSchool), in: setup.otherSchool.id)
            .first { $0.role == .teacher }
        try await setup.harness.api { api in
            let foreignCard = try Self.decoder().decode(ContractCard.self, from: try await api.get("/api/mobile/idcard", as: setup.otherStudent).body)
            let foreign = try await api.post("/api/v1/id-cards/verify", as: setup.teacher, json: ["payload": foreignCard.qr_payload], headers: Self.english)
            let forged = try await api.post("/api/v1/id-cards/verify", as: setup.teacher, json: ["payload": "x.y.z"], headers: Self.english)
            #expect(foreign.status == 400 && foreign.refusal(asked: []) == forged.refusal(asked: []))
            #expect(!foreign.text.contains("far"))
            if let otherTeacher {
                let ourCard = try Self.decoder().decode(ContractCard.self, from: try await api.get("/api/mobile/idcard", as: setup.student).body)
                let principal = Principal(userID: otherTeacher.id, role: .teacher, schoolID: setup.otherSchool.id, displayName: otherTeacher.displayName)
                let answer = try await api.post("/api/v1/id-cards/verify", as: principal, json: ["payload": ourCard.qr_payload], headers: Self.english)
                #expect(answer.status == 400 && answer.code == "ID_CARDS_INVALID_CARD")
            }
        }
    }

    @Test("a suspended account's card stops checking; the action writes only the school's key")
    func suspended() throws {
        let setup = try Setup()
        let card = try setup.harness.kernel.run(ShowIdCard.self, .init(), as: setup.student, in: setup.harness.school.id)
        let teacher = setup.teacher
        #expect(try setup.harness.kernel.run(VerifyIdCard.self, .init(payload: card.qrPayload), as: teacher, in: setup.harness.school.id).idNumber == "GR-1")
        try setup.harness.kernel.run(SetSuspended.self, UserChange(email: "pupil@school.org", suspended: true), as: setup.harness.user(.admin), in: setup.harness.school.id)
        #expect(throws: IdCardsError.invalidCard) {
            try setup.harness.kernel.run(VerifyIdCard.self, .init(payload: card.qrPayload), as: teacher, in: setup.harness.school.id)
        }
    }
}
