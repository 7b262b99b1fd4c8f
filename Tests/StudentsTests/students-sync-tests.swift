import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

/// What the roster sends offline apps: each person only the students and classes their role
/// reaches, every write path recorded, and a reset when a teacher's classes change.
@Suite("Students: offline sync")
struct StudentsSyncTests {
    let roster: RosterFixture

    init() throws {
        roster = try RosterFixture()
    }

    private func pull(_ principal: Principal, from cursor: String? = nil) throws -> (changes: [SyncChange], cursor: String) {
        guard case .changes(let changes, let next, let hasMore, _) = try roster.harness.kernel.syncPull(
            clientID: nil, cursor: cursor, limit: 1000, as: principal, in: roster.harness.school.id) else {
            throw StudentsSyncTestFailure.reset
        }
        #expect(!hasMore)
        return (changes, next)
    }

    private func field(_ change: SyncChange, _ name: String) -> String? {
        guard case .object(let data)? = change.data, case .string(let value)? = data[name] else { return nil }
        return value
    }

    private func students(_ changes: [SyncChange]) -> [String] {
        changes.filter { $0.type == "student" && $0.op == .upsert }.compactMap { field($0, "grNumber") }.sorted()
    }

    private func classes(_ changes: [SyncChange]) -> [String] {
        changes.filter { $0.type == "class" && $0.op == .upsert }.compactMap { field($0, "code") }.sorted()
    }

    @Test("a teacher receives their classes' students, a guardian their children and the children's classes, an admin everyone")
    func scopesFollowRoles() throws {
        let teacher = try pull(roster.teacher7A).changes
        #expect(students(teacher) == ["GR-1", "GR-2"])
        #expect(classes(teacher) == ["7A"])

        let guardian = try pull(roster.guardian).changes
        #expect(students(guardian) == ["GR-1", "GR-3"])
        #expect(classes(guardian) == ["7A", "8A"])

        let admin = try pull(roster.admin).changes
        #expect(students(admin) == ["GR-1", "GR-2", "GR-3", "GR-4"])
        #expect(classes(admin) == ["7A", "8A"])
        // The snapshot gives the same view as the history.
        let snapshot = try roster.harness.kernel.syncSnapshot(after: nil, as: roster.guardian, in: roster.harness.school.id)
        #expect(snapshot.items.filter { $0.type == "student" }.count == 2)
    }

    @Test("students imported from a CSV file reach the class's teacher's pull, and only theirs")
    func importAppears() throws {
        let teacher8A = try pull(roster.teacher8A).cursor
        let teacher7A = try pull(roster.teacher7A).cursor
        let csv = """
            gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class
            GR-200,Sara,Ali,en,2014-03-02,FEMALE,ACTIVE,2026-09-01,8A
            """
        try roster.run(ImportStudents.self, .init(csv: csv, dryRun: false))
        let changes = try pull(roster.teacher8A, from: teacher8A).changes
        #expect(students(changes) == ["GR-200"])
        #expect(changes.first.flatMap { field($0, "nameEn") } == "Sara Ali")
        #expect(try pull(roster.teacher7A, from: teacher7A).changes.isEmpty)
    }

    @Test("a student moved to another class is deleted from the old class's teacher and sent to the new one's")
    func moveBetweenClasses() throws {
        let old = try pull(roster.teacher7A).cursor
        let new = try pull(roster.teacher8A).cursor
        try roster.run(EnrolStudent.self, .init(grNumber: "GR-2", classCode: "8A"))
        let leaving = try pull(roster.teacher7A, from: old).changes
        #expect(leaving.map(\.op) == [.delete])
        let arriving = try pull(roster.teacher8A, from: new).changes
        #expect(students(arriving) == ["GR-2"])
    }

    @Test("a teacher whose class is given to someone else is told to reset, and their snapshot no longer has it")
    func teacherLosesClass() throws {
        let before = try pull(roster.teacher8A)
        #expect(students(before.changes) == ["GR-3", "GR-4"])
        try roster.run(AssignTeacher.self, .init(teacherEmail: "t7a@school.org", classCode: "8A", subjectCode: "MATH"))
        guard case .reset(let reason) = try roster.harness.kernel.syncPull(clientID: nil, cursor: before.cursor, as: roster.teacher8A,
                                                                           in: roster.harness.school.id) else {
            Issue.record("expected a reset")
            return
        }
        #expect(reason == .scopeChanged)
        let snapshot = try roster.harness.kernel.syncSnapshot(after: nil, as: roster.teacher8A, in: roster.harness.school.id)
        #expect(snapshot.items.filter { $0.type == "student" || $0.type == "class" }.isEmpty)
        try roster.addStudent("GR-9", "Omar", "Hall", class: "8A", language: "en")
        #expect(try pull(roster.teacher8A, from: snapshot.cursor).changes.isEmpty)
        #expect(students(try pull(roster.teacher7A).changes).contains("GR-9"))
    }

    private func subjects(_ changes: [SyncChange]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for change in changes where change.type == "students.subject" && change.op == .upsert {
            guard case .object(let data)? = change.data, case .string(let code)? = data["code"], case .array(let teaching)? = data["teaching"] else { continue }
            result[code] = teaching.compactMap { row in
                guard case .object(let fields) = row, case .string(let classCode)? = fields["classCode"] else { return nil }
                return classCode
            }.sorted()
        }
        return result
    }

    @Test("the subjects catalog reaches everyone in the school with where it is taught; a new class for a subject re-sends it; another school's never arrives")
    func subjectsCatalog() throws {
        let other = try roster.harness.makeSchool("other-school")
        try roster.harness.kernel.run(CreateSubject.self, .init(code: "SECRET", name: LocalizedText(ar: "سر", en: "Secret"), credits: 1),
                                      as: roster.harness.user(.admin, in: other), in: other.id)
        for person in [roster.admin, roster.teacher7A, roster.guardian, roster.studentUser] {
            #expect(try subjects(pull(person).changes) == ["MATH": ["8A"]], "\(person.displayName) reads the catalog")
        }
        let snapshot = try roster.harness.kernel.syncSnapshot(after: nil, as: roster.guardian, in: roster.harness.school.id)
        #expect(snapshot.items.filter { $0.type == "students.subject" }.count == 1)

        let before = try pull(roster.guardian).cursor
        try roster.run(AssignTeacher.self, .init(teacherEmail: "t7a@school.org", classCode: "7A", subjectCode: "MATH"))
        #expect(try subjects(pull(roster.guardian, from: before).changes) == ["MATH": ["7A", "8A"]])
    }
}

enum StudentsSyncTestFailure: Error { case reset }
