import Core
import Foundation

/// The roster's HTTP routes (the mobile contract §3, §4, §7 and §12). A "section" of the
/// contract is our class (its id is the class's id) and a "grade" is our year level.
/// Handlers decode, run an action and encode: every rule and scope check is in the actions.
enum StudentsRoutes {
    static var all: [APIRoute] {
        [list, create, show, update, archive] + StudentsClassRoutes.all + StudentsSubjectRoutes.all
    }

    // MARK: Students (§3)

    /// The busiest read of the API (the benchmark route): one count and one page query in the
    /// action, then the page written straight to JSON (`StudentListBody`).
    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/students", summary: "Students the caller may see (a teacher: their classes), a page at a time",
                 query: [
                    APIParameter("page", .integer(minimum: 1, maximum: maximumPage)),
                    APIParameter("per_page", .integer(minimum: 1, maximum: APIPaging.maximumPerPage)),
                    APIParameter("search", .string(maxLength: TextLimit.name)),
                    APIParameter("section_id", .string(maxLength: TextLimit.name)),
                    APIParameter("status", .values(of: StudentStatus.self)),
                 ],
                 response: .of(APIPage<StudentItem>.self)) { request in
            let paging = try page(request)
            let input = ListStudents.Input(
                search: try request.queryText("search", maxLength: TextLimit.name), classID: try request.queryText("section_id", maxLength: TextLimit.name),
                status: try request.queryEnum("status", as: StudentStatus.self) ?? .active, page: paging.page, pageSize: paging.perPage)
            let result = try await request.run(ListStudents.self, input)
            return APIResponse(status: 200, body: StudentListBody.page(result.students, total: result.total, paging: paging, language: request.language))
        }
    }

    static var create: APIRoute {
        APIRoute(.post, "/api/mobile/students", summary: "Admit a student (administrators); a GR number is allocated when none is given",
                 body: NewStudentBody.schema, status: 201,
                 response: .of(AdmittedStudent.self)) { request in
            let body = try request.decode(NewStudentBody.self)
            let student = try await request.run(CreateStudent.self, StudentFields(
                grNumber: body.grNumber ?? "", givenName: body.givenName, surname: body.familyName, dateOfBirth: body.dateOfBirth,
                gender: body.gender.rawValue, classID: body.sectionId, accountEmail: body.email))
            return try .json(AdmittedStudent(id: student.id, givenName: student.givenName, familyName: student.surname, grNumber: student.grNumber),
                             status: 201)
        }
    }

    static var show: APIRoute {
        APIRoute(.get, "/api/mobile/students/:studentId", summary: "One student (by id or GR number), if the caller may see them",
                 response: .of(StudentDetailItem.self)) { request in
            let detail = try await request.run(ShowStudent.self, .init(grNumber: try request.parameter("studentId")))
            return try .json(StudentDetailItem(detail, request.language))
        }
    }

    static var update: APIRoute {
        APIRoute(.put, "/api/mobile/students/:studentId", summary: "Edit a student's names, gender, class or status (administrators)",
                 body: StudentChangeBody.schema,
                 response: .of(ChangedStudent.self)) { request in
            let reference = try request.parameter("studentId")
            let body = try request.decode(StudentChangeBody.self)
            let student = try await request.run(UpdateStudent.self, StudentChange(
                grNumber: reference, givenName: body.givenName, surname: body.familyName, gender: body.gender?.rawValue,
                status: body.status?.rawValue, classID: body.sectionId))
            return try .json(ChangedStudent(id: student.id, givenName: student.givenName, familyName: student.surname, status: student.status))
        }
    }

    static var archive: APIRoute {
        APIRoute(.delete, "/api/mobile/students/:studentId", summary: "Archive a student (administrators); every record about them is kept",
                 response: .success) { request in
            _ = try await request.run(ArchiveStudent.self, .init(grNumber: try request.parameter("studentId")))
            return try .success()
        }
    }

    /// `ListStudents` numbers pages up to 100,000.
    static let maximumPage = 100_000

    /// `?page=&per_page=` (50 a page unless asked), within what the action accepts.
    static func page(_ request: APIRequest) throws -> APIPaging {
        let paging = try request.paging(defaultPerPage: 50)
        guard paging.page <= maximumPage else {
            throw APIError.invalidField("page", reason: "expected a whole number from 1 to \(maximumPage)")
        }
        return paging
    }
}

/// `POST /students`. The roster needs a family name, a gender and a date of birth for every
/// student, so they are required here where the web app left them optional.
struct NewStudentBody: Decodable {
    let givenName: String
    let familyName: String
    let gender: Gender
    let dateOfBirth: String
    let grNumber: String?
    let email: String?
    let sectionId: String?

    static let schema: APISchema = .object([
        ("given_name", .string(maxLength: TextLimit.name)), ("family_name", .string(maxLength: TextLimit.name)),
        ("gender", .values(of: Gender.self)), ("date_of_birth", .date),
        ("gr_number", .optional(.string(maxLength: 32))), ("email", .optional(.string(maxLength: 254))),
        ("section_id", .optional(.string(maxLength: TextLimit.name))),
    ])
}

/// `PUT /students/:studentId`: absent fields stay as they are.
struct StudentChangeBody: Decodable {
    let givenName: String?
    let familyName: String?
    let gender: Gender?
    let sectionId: String?
    let status: StudentStatus?

    static let schema: APISchema = .object([
        ("given_name", .optional(.string(maxLength: TextLimit.name))), ("family_name", .optional(.string(maxLength: TextLimit.name))),
        ("gender", .optional(.values(of: Gender.self))), ("section_id", .optional(.string(maxLength: TextLimit.name))),
        ("status", .optional(.values(of: StudentStatus.self))),
    ])
}

/// `POST /students`'s answer.
struct AdmittedStudent: Codable, Sendable {
    let id: String
    let givenName: String
    let familyName: String
    let grNumber: String
}

/// `PUT /students/:studentId`'s answer.
struct ChangedStudent: Codable, Sendable {
    let id: String
    let givenName: String
    let familyName: String
    let status: StudentStatus
}

/// `{id, name, grade}`: a student's class this year and its year level, in the request's language.
struct SectionItem: Codable, Sendable {
    let id: String
    let name: String
    let grade: Nullable<String>

    init?(_ student: Student, _ language: Language) {
        guard let id = student.classID, let name = student.className else { return nil }
        self.id = id
        self.name = name.text(in: language)
        grade = Nullable(student.yearLevelName?.text(in: language))
    }
}

/// A row of the student list (`StudentListBody` writes the same JSON by hand). We keep no photo
/// or phone for a student: both are null.
struct StudentItem: Codable, Sendable {
    let id: String
    let givenName: String
    let familyName: String
    let grNumber: String
    // Null when the school has not recorded them; the app's models take both as optional.
    let gender: Nullable<Gender>
    let dateOfBirth: Nullable<APIInstant>
    let status: StudentStatus
    let photoUrl: Nullable<String>
    let phone: Nullable<String>
    let section: Nullable<SectionItem>

    init(_ student: Student, _ language: Language) {
        id = student.id
        givenName = student.givenName
        familyName = student.surname
        grNumber = student.grNumber
        gender = Nullable(student.gender)
        dateOfBirth = Nullable(student.dateOfBirth.map { APIInstant.midnight(of: $0) })
        status = student.status
        photoUrl = Nullable(nil)
        phone = Nullable(nil)
        section = Nullable(SectionItem(student, language))
    }
}

/// What the student detail adds to the list row. We keep no separate student id or admission
/// number, nationality or blood group: those are null.
struct StudentRecordFields: Codable, Sendable {
    let studentId: Nullable<String>
    let nationality: Nullable<String>
    let bloodGroup: Nullable<String>
    let email: Nullable<String>
    let enrollmentDate: APIInstant
    let admissionNumber: Nullable<String>
}

/// The student detail: the list row's keys, then the record's other identifiers, in one object.
typealias StudentDetailItem = APIMerged<StudentItem, StudentRecordFields>

extension APIMerged where Base == StudentItem, Extra == StudentRecordFields {
    init(_ detail: StudentDetail, _ language: Language) {
        self.init(StudentItem(detail.student, language), StudentRecordFields(
            studentId: Nullable(nil), nationality: Nullable(nil), bloodGroup: Nullable(nil), email: Nullable(detail.accountEmail),
            enrollmentDate: APIInstant.midnight(of: detail.student.enrolledOn), admissionNumber: Nullable(nil)))
    }
}
