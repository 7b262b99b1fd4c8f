@testable import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
import IdCards
import Students
import Testing

/// A student's ID card, scanned at the classroom door: the QR payload ID cards signs, read back
/// through its named query `id-cards.holder`, marks the register. The demo school on Sunday
/// 22 November 2026 at 08:00; student@databayt.org is in 7A, which teacher@databayt.org teaches.
@Suite("Attendance: check-in by ID card")
struct AttendanceCardCheckInTests {
    static func fixture() throws -> AttendanceFixture { try AttendanceFixture(with: [IdCardsModule()]) }

    static func card(of principal: Principal, _ fixture: AttendanceFixture, in school: School? = nil) throws -> String {
        try fixture.harness.kernel.run(ShowIdCard.self, .init(), as: principal, in: (school ?? fixture.school).id).qrPayload
    }

    @Test("a teacher scans a student's card: PRESENT by QR code; a second scan changes nothing; after the register marked them absent, LATE")
    func scans() throws {
        let fixture = try Self.fixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let student = try fixture.account("student@databayt.org")
        let card = try Self.card(of: student, fixture)
        let studentID = try #require(try fixture.run(ListStudents.self, .init(), as: student).students.first).id

        let first = try fixture.run(CheckInByCard.self, .init(classCode: "7A", period: "P1", payload: card), as: teacher)
        #expect(first.studentID == studentID && first.status == .present && !first.alreadyCheckedIn && first.classCode == "7A" && !first.name.isEmpty)
        let marked = try fixture.register("7A", period: "P1").filter { $0.status != nil }
        #expect(marked.map(\.studentID) == [studentID] && marked.first?.status == .present, "only the card's holder is marked")
        let method = try fixture.run(AttendanceRecords.self, .init(student: studentID), as: fixture.admin).records.first { $0.period == "P1" }?.method
        #expect(method == AttendanceMethod.qrCode.rawValue)

        let again = try fixture.run(CheckInByCard.self, .init(classCode: "7A", period: "P1", payload: card), as: teacher)
        #expect(again.alreadyCheckedIn && again.status == .present)

        try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P2", marks: [AttendanceMark(student: first.grNumber, status: .absent)]), as: teacher)
        let late = try fixture.run(CheckInByCard.self, .init(classCode: "7A", period: "P2", payload: card), as: teacher)
        #expect(late.status == .late && !late.alreadyCheckedIn, "came after the register was taken")
        #expect(try fixture.register("7A", period: "P2").first { $0.studentID == studentID }?.status == .late)
    }

    @Test("a changed card, another school's, a teacher's, or a student of another class is refused, naming no one, and nothing is written")
    func refusals() throws {
        let fixture = try Self.fixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let student = try fixture.account("student@databayt.org")
        let card = try Self.card(of: student, fixture)
        // The signature's first character: its last one carries two padding bits, so changing
        // "A" to "B" there can decode to the same signature and be a card nobody changed.
        let signature = try #require(card.split(separator: ".").last)
        let changed = String(card.dropLast(signature.count)) + (signature.hasPrefix("A") ? "B" : "A") + String(signature.dropFirst())
        #expect(throws: AttendanceError.cardInvalid) { try fixture.run(CheckInByCard.self, .init(classCode: "7A", payload: changed), as: teacher) }
        #expect(throws: AttendanceError.cardInvalid) { try fixture.run(CheckInByCard.self, .init(classCode: "7A", payload: "not a card"), as: teacher) }

        let nile = try fixture.harness.kernel.school("nile")
        let nileStudent = try fixture.harness.kernel.run(SignIn.self, .init(email: "student@nile.databayt.org", password: AuthDemo.password), as: .anonymous,
                                                         in: nile.id).user
        let nilePrincipal = try #require(nileStudent.map { Principal(userID: $0.id, role: .student, schoolID: nile.id, displayName: $0.displayName) })
        let nileCard = try Self.card(of: nilePrincipal, fixture, in: nile)
        #expect(throws: AttendanceError.cardInvalid, "another school signed it") {
            try fixture.run(CheckInByCard.self, .init(classCode: "7A", payload: nileCard), as: teacher)
        }
        #expect(throws: AttendanceError.cardNotInClass("7A"), "a teacher's own card") {
            try fixture.run(CheckInByCard.self, .init(classCode: "7A", payload: try Self.card(of: teacher, fixture)), as: teacher)
        }
        #expect(throws: AttendanceError.cardNotInClass("8A"), "a student of 7A at 8A's door; the refusal carries only the class") {
            try fixture.run(CheckInByCard.self, .init(classCode: "8A", payload: card))
        }
        #expect(throws: AttendanceError.oneClass) { try fixture.run(CheckInByCard.self, .init(payload: card), as: teacher) }
        #expect(try fixture.register("7A").allSatisfy { $0.status == nil } && fixture.register("8A").allSatisfy { $0.status == nil })

        _ = try fixture.harness.kernel.disable("id-cards", for: fixture.school.id, by: .localOperator)
        #expect(throws: AttendanceError.cardsOff) { try fixture.run(CheckInByCard.self, .init(classCode: "7A", payload: card), as: teacher) }
    }

    @Test("over the API: 200 with the student and status; a changed card 404; another school's or another teacher's class answers like an unknown one")
    func route() async throws {
        let fixture = try RoutesFixture(with: [IdCardsModule()])
        let card = try Self.card(of: fixture.student, fixture.base)
        try await fixture.harness.api { api in
            func scan(_ classID: String, _ payload: String = card) async throws -> APITestResponse {
                try await api.post("/api/v1/attendance/card-check-in", as: fixture.teacher, json: ["class_id": classID, "qr_payload": payload, "period": "P1"])
            }
            let scanned = try await scan(try fixture.classID("7A"))
            #expect(scanned.status == 200, "\(scanned.text)")
            #expect(Set(scanned.object.keys) == ["student_id", "gr_number", "name", "class_id", "status", "already_checked_in"])
            #expect(scanned.object["status"] as? String == "PRESENT" && scanned.object["already_checked_in"] as? Bool == false)
            #expect(try await scan(try fixture.classID("7A")).object["already_checked_in"] as? Bool == true)

            let changed = try await scan(try fixture.classID("7A"), String(card.dropLast(2)))
            #expect(changed.status == 404 && changed.object["code"] as? String == "ATTENDANCE_CARD_INVALID", "\(changed.text)")
            let unknown = try await scan("no-such-class")
            for other in [fixture.nileClass, try fixture.classID(fixture.notTaught)] {
                let answer = try await scan(other)
                #expect(answer.status == unknown.status && answer.object["code"] as? String == unknown.object["code"] as? String, "\(answer.text)")
            }
            #expect(!unknown.text.contains("--"), "no command-line flag in an API error")
        }
    }
}
