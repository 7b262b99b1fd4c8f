import Auth
import Core
import Foundation
import HogwartsTestSupport
@testable import Students
import Testing

/// The subjects catalog as a phone reads it (`/api/mobile/subjects`, `/subjects/:id`,
/// `/subjects/my-subjects`): the contract's keys and types, the year levels and teachers, and
/// refusals that read like a subject that does not exist.
@Suite("Students subjects routes")
struct StudentsSubjectsRoutesTests {
    static let english = ["Accept-Language": "en"]

    /// The roster fixture (MATH taught in 8A by t8a), plus ARAB taught in 7A by t7a, a second
    /// family whose only child is in 7A, the pupil account linked to GR-3 (8A), and another school
    /// with a subject of its own.
    struct Setup: @unchecked Sendable {
        let roster: RosterFixture
        let otherFamily: Principal
        let otherSchoolSubjectID: String
        let math: String
        let arabic: String

        init() throws {
            roster = try RosterFixture()
            try roster.run(CreateSubject.self, .init(code: "ARAB", name: LocalizedText(ar: "اللغة العربية", en: "Arabic"), credits: 3))
            try roster.run(AssignTeacher.self, .init(teacherEmail: "t7a@school.org", classCode: "7A", subjectCode: "ARAB"))
            otherFamily = try RosterFixture.account("dad@other.org", .guardian, roster.harness)
            try roster.run(LinkGuardian.self, .init(grNumber: "GR-2", givenName: "Omar", surname: "Amin", email: "dad@other.org", relation: .father))
            try roster.run(LinkStudentAccount.self, .init(grNumber: "GR-3", email: "pupil@school.org"))
            let subjects = try roster.run(ListSubjects.self, .init())
            math = subjects.first { $0.code == "MATH" }?.id ?? ""
            arabic = subjects.first { $0.code == "ARAB" }?.id ?? ""

            let other = try roster.harness.makeSchool("other-school")
            let otherAdmin = roster.harness.user(.admin, in: other)
            otherSchoolSubjectID = try roster.harness.kernel.run(
                CreateSubject.self, .init(code: "SECRET", name: LocalizedText(ar: "سر", en: "Secret subject"), credits: 1), as: otherAdmin, in: other.id)
        }
    }

    // MARK: The contract's shapes

    /// `GET /subjects` items, with the contract's names, types and optionality (§11).
    struct ContractSubject: Decodable {
        let id: String
        let name: String
        let slug: String
        let department: String?
        let description: String?
        let thumbnail_url: String?
        let color: String?
        let levels: [String]
        let grades: [Int]
        let total_chapters: Int
        let total_lessons: Int
        let average_rating: Double
        let rating_count: Int
    }

    struct ContractSubjectList: Decodable {
        let data: [ContractSubject]
        let total: Int
    }

    struct ContractQuestionStats: Decodable {
        let total: Int
    }

    /// `GET /subjects/:id`: the list fields plus the detail's.
    struct ContractSubjectDetail: Decodable {
        let id: String
        let name: String
        let slug: String
        let levels: [String]
        let grades: [Int]
        let grade_range: String?
        let curriculum: String?
        let country: String?
        let tags: [String]
        let banner_url: String?
        let total_content: Int
        let usage_count: Int
        let status: String
        let chapters: [[String: String]]
        let question_stats: ContractQuestionStats
    }

    struct ContractMySubject: Decodable {
        let id: String
        let name: String
        let slug: String
        let department: String?
        let thumbnail_url: String?
        let teacher_name: String?
    }

    struct ContractMySubjects: Decodable {
        let data: [ContractMySubject]
    }

    @Test("the list, the detail and my-subjects decode with the contract's field names, types and optionality")
    func contractShapes() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let list = try await api.get("/api/mobile/subjects", as: setup.roster.studentUser, headers: Self.english)
            #expect(list.status == 200)
            let decoded = try JSONDecoder().decode(ContractSubjectList.self, from: list.body)
            #expect(decoded.total == 2 && decoded.data.map(\.slug) == ["arab", "math"])
            let math = decoded.data.first { $0.slug == "math" }
            #expect(math?.levels == ["Grade 8"] && math?.grades == [2])

            let detail = try await api.get("/api/mobile/subjects/\(setup.math)", as: setup.roster.studentUser, headers: Self.english)
            #expect(detail.status == 200)
            let subject = try JSONDecoder().decode(ContractSubjectDetail.self, from: detail.body)
            #expect(subject.name == "Maths" && subject.grade_range == "Grade 8" && subject.usage_count == 1 && subject.chapters.isEmpty)

            let mine = try await api.get("/api/mobile/subjects/my-subjects", as: setup.roster.studentUser, headers: Self.english)
            #expect(mine.status == 200)
            let own = try JSONDecoder().decode(ContractMySubjects.self, from: mine.body)
            #expect(own.data.map(\.name) == ["Maths"] && own.data.first?.teacher_name == "t8a@school.org")
        }
    }

    // MARK: The catalog

    @Test("the catalog lists every subject with its year levels and teachers, searches Arabic-aware, and in Arabic by default")
    func catalog() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let list = try await api.get("/api/mobile/subjects", as: setup.roster.guardian, headers: Self.english)
            let math = list.data.first { $0["code"] as? String == "MATH" }
            let teachers = math?["teachers"] as? [[String: Any]] ?? []
            #expect(teachers.map { $0["name"] as? String } == ["t8a@school.org"] && teachers.first?["section"] as? String == "8-A")

            let searched = try await api.get("/api/mobile/subjects?search=%D8%A7%D9%84%D8%B9%D8%B1%D8%A8%D9%8A%D9%87", as: setup.roster.teacher7A)
            #expect(searched.data.map { $0["name"] as? String } == ["اللغة العربية"], "العربيه finds العربية, named in Arabic")

            let department = try await api.get("/api/mobile/subjects?department=science", as: setup.roster.teacher7A)
            #expect(department.status == 200 && department.data.isEmpty, "no subject has a department")

            let tooLong = try await api.get("/api/mobile/subjects?search=\(String(repeating: "a", count: 101))", as: setup.roster.teacher7A)
            #expect(tooLong.status == 400)
        }
    }

    @Test("another school's subject, and an unknown id, answer the same 404; the other school's subject is in no list")
    func foreignSchool() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            for principal in [setup.roster.admin, setup.roster.teacher7A, setup.roster.guardian, setup.roster.studentUser] {
                let foreign = try await api.get("/api/mobile/subjects/\(setup.otherSchoolSubjectID)", as: principal, headers: Self.english)
                let random = UUID().uuidString.lowercased()
                let unknown = try await api.get("/api/mobile/subjects/\(random)", as: principal, headers: Self.english)
                #expect(foreign.status == 404 && foreign.code == "STUDENTS_UNKNOWN_SUBJECT")
                #expect(foreign.refusal(asked: setup.otherSchoolSubjectID) == unknown.refusal(asked: random))
                let list = try await api.get("/api/mobile/subjects", as: principal)
                #expect(!list.text.contains("SECRET") && !list.text.contains(setup.otherSchoolSubjectID))
                let mine = try await api.get("/api/mobile/subjects/my-subjects", as: principal)
                #expect(!mine.text.contains(setup.otherSchoolSubjectID))
            }
        }
    }

    // MARK: My subjects

    @Test("my-subjects: a guardian sees their own children's subjects, never another family's child's")
    func otherFamily() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let mum = try await api.get("/api/mobile/subjects/my-subjects", as: setup.roster.guardian, headers: Self.english)
            #expect(Set(mum.data.compactMap { $0["id"] as? String }) == [setup.math, setup.arabic], "children in 7A and 8A")
            let dad = try await api.get("/api/mobile/subjects/my-subjects", as: setup.otherFamily, headers: Self.english)
            #expect(dad.data.compactMap { $0["id"] as? String } == [setup.arabic], "his only child is in 7A: 8A's maths is not his")
        }
    }

    @Test("my-subjects: a teacher sees what they teach, not the subjects of classes they do not teach")
    func teacherOutsideClasses() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let teacher = try await api.get("/api/mobile/subjects/my-subjects", as: setup.roster.teacher7A, headers: Self.english)
            #expect(teacher.data.compactMap { $0["id"] as? String } == [setup.arabic])
            #expect(teacher.data.first?["teacher_name"] as? String == "t7a@school.org")
            let admin = try await api.get("/api/mobile/subjects/my-subjects", as: setup.roster.admin)
            #expect(admin.status == 200 && admin.data.isEmpty, "an administrator who teaches nothing has no subjects of their own")
        }
    }

    @Test("no token is 401; a role with no grant is 403")
    func refusals() async throws {
        let setup = try Setup()
        try await setup.roster.harness.api { api in
            let answer1 = try await api.get("/api/mobile/subjects")
            #expect(answer1.status == 401)
            let user = setup.roster.harness.user(.user)
            let answer2 = try await api.get("/api/mobile/subjects/my-subjects", as: user)
            #expect(answer2.status == 403)
        }
    }

    // MARK: The command line's actions

    @Test("the actions the commands run: catalog, show by code, mine; an unknown code is refused by name")
    func actions() throws {
        let setup = try Setup()
        let catalog = try setup.roster.run(ListSubjectCatalog.self, .init(search: "mat"))
        #expect(catalog.map(\.subject.code) == ["MATH"] && catalog.first?.teaching.map(\.classCode) == ["8A"])
        #expect(try setup.roster.run(ShowSubject.self, .init(subject: "ARAB")).teaching.map(\.teacherName) == ["t7a@school.org"])
        #expect(try setup.roster.run(ListMySubjects.self, .init(), as: setup.roster.teacher8A).map(\.subject.code) == ["MATH"])
        #expect(throws: StudentsError.unknownSubject("NOPE")) { try setup.roster.run(ShowSubject.self, .init(subject: "NOPE")) }
    }
}
