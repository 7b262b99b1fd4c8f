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
                 response: .page(of: StudentItem.schema)) { request in
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
                 response: .object([("id", .id), ("given_name", .text), ("family_name", .text), ("gr_number", .text)])) { request in
            let body = try request.decode(NewStudentBody.self)
            let student = try await request.run(CreateStudent.self, StudentFields(
                grNumber: body.grNumber ?? "", givenName: body.givenName, surname: body.familyName, dateOfBirth: body.dateOfBirth,
                gender: body.gender.rawValue, classID: body.sectionId, accountEmail: body.email))
            return try .json(["id": student.id, "given_name": student.givenName, "family_name": student.surname, "gr_number": student.grNumber],
                             status: 201)
        }
    }

    static var show: APIRoute {
        APIRoute(.get, "/api/mobile/students/:studentId", summary: "One student (by id or GR number), if the caller may see them",
                 response: StudentDetailItem.schema) { request in
            let detail = try await request.run(ShowStudent.self, .init(grNumber: try request.parameter("studentId")))
            return try .json(StudentDetailItem(detail, request.language))
        }
    }

    static var update: APIRoute {
        APIRoute(.put, "/api/mobile/students/:studentId", summary: "Edit a student's names, gender, class or status (administrators)",
                 body: StudentChangeBody.schema,
                 response: .object([("id", .id), ("given_name", .text), ("family_name", .text), ("status", .values(of: StudentStatus.self))])) { request in
            let reference = try request.parameter("studentId")
            let body = try request.decode(StudentChangeBody.self)
            let student = try await request.run(UpdateStudent.self, StudentChange(
                grNumber: reference, givenName: body.givenName, surname: body.familyName, gender: body.gender?.rawValue,
                status: body.status?.rawValue, classID: body.sectionId))
            return try .json(["id": student.id, "given_name": student.givenName, "family_name": student.surname, "status": student.status.rawValue])
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

/// `{id, name, grade}`: a student's class this year and its year level, in the request's language.
struct SectionItem: Encodable {
    let id: String
    let name: String
    let grade: String?

    init?(_ student: Student, _ language: Language) {
        guard let id = student.classID, let name = student.className else { return nil }
        self.id = id
        self.name = name.text(in: language)
        grade = student.yearLevelName?.text(in: language)
    }

    static let schema: APISchema = .object([("id", .id), ("name", .text), ("grade", .nullable(.text))])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(grade, forKey: .grade)
    }

    enum CodingKeys: String, CodingKey { case id, name, grade }
}

/// A row of the student list. We keep no photo or phone for a student: both are null.
struct StudentItem: Encodable {
    let student: Student
    let section: SectionItem?

    init(_ student: Student, _ language: Language) {
        self.student = student
        section = SectionItem(student, language)
    }

    static let fields: [(String, APISchema)] = [
        ("id", .id), ("given_name", .text), ("family_name", .text), ("gr_number", .text), ("gender", .nullable(.values(of: Gender.self))),
        ("date_of_birth", .nullable(ContractDate.schema)), ("status", .values(of: StudentStatus.self)), ("photo_url", .nullable(.text)), ("phone", .nullable(.text)),
        ("section", .nullable(SectionItem.schema)),
    ]
    static let schema: APISchema = .object(fields)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encodeFields(into: &container)
    }

    func encodeFields(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encode(student.id, forKey: .id)
        try container.encode(student.givenName, forKey: .givenName)
        try container.encode(student.surname, forKey: .familyName)
        try container.encode(student.grNumber, forKey: .grNumber)
        // Null when the school has not recorded them; the app's models take both as optional.
        try container.encode(student.gender?.rawValue, forKey: .gender)
        try container.encode(student.dateOfBirth.map(ContractDate.instant), forKey: .dateOfBirth)
        try container.encode(student.status.rawValue, forKey: .status)
        try container.encodeNil(forKey: .photoUrl)
        try container.encodeNil(forKey: .phone)
        try container.encode(section, forKey: .section)
    }

    enum CodingKeys: String, CodingKey {
        case id, givenName, familyName, grNumber, gender, dateOfBirth, status, photoUrl, phone, section
        case studentId, nationality, bloodGroup, email, enrollmentDate, admissionNumber
    }
}

/// The student detail: the list fields and the record's other identifiers. We keep no separate
/// student id or admission number, nationality or blood group: those are null.
struct StudentDetailItem: Encodable {
    let item: StudentItem
    let email: String?

    init(_ detail: StudentDetail, _ language: Language) {
        item = StudentItem(detail.student, language)
        email = detail.accountEmail
    }

    static let schema: APISchema = .object(StudentItem.fields + [
        ("student_id", .nullable(.text)), ("nationality", .nullable(.text)), ("blood_group", .nullable(.text)),
        ("email", .nullable(.text)), ("enrollment_date", ContractDate.schema), ("admission_number", .nullable(.text)),
    ])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StudentItem.CodingKeys.self)
        try item.encodeFields(into: &container)
        try container.encodeNil(forKey: .studentId)
        try container.encodeNil(forKey: .nationality)
        try container.encodeNil(forKey: .bloodGroup)
        try container.encode(email, forKey: .email)
        try container.encode(ContractDate.instant(item.student.enrolledOn), forKey: .enrollmentDate)
        try container.encodeNil(forKey: .admissionNumber)
    }
}
