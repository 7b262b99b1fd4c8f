import Core
import Foundation

/// The roster's routes for guardians (§4), teachers (§7) and administrators (§12), and the
/// module's dashboard and admin-stats fields.
enum StudentsClassRoutes {
    static var all: [APIRoute] {
        [children, child, teacherClasses, classStudents, adminClasses, adminClass, school]
    }

    // MARK: Guardian (§4)

    static var children: APIRoute {
        let item: APISchema = .object([
            ("id", .id), ("given_name", .text), ("family_name", .text), ("gender", .nullable(.values(of: Gender.self))), ("date_of_birth", .nullable(ContractDate.schema)),
            ("photo_url", .nullable(.text)), ("status", .values(of: StudentStatus.self)), ("relationship", .values(of: GuardianRelation.self)),
            ("section", .nullable(.text)), ("grade", .nullable(.text)),
        ])
        return APIRoute(.get, "/api/mobile/guardian/children", summary: "The signed-in guardian's children", response: .list(of: item)) { request in
            let children = try await request.run(ListChildren.self, .init())
            let language = request.language
            return try .json(["data": children.map { child in
                let student = child.student
                return APIValue.object([
                    "id": .string(student.id), "given_name": .string(student.givenName), "family_name": .string(student.surname),
                    "gender": .optional(student.gender?.rawValue), "date_of_birth": .optional(student.dateOfBirth.map(ContractDate.instant)), "photo_url": .null,
                    "status": .string(student.status.rawValue), "relationship": .string(child.relation.rawValue),
                    "section": .optional(student.className?.text(in: language)), "grade": .optional(student.yearLevelName?.text(in: language)),
                ])
            }])
        }
    }

    static var child: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId", summary: "One of the signed-in guardian's children (the student detail)",
                 response: StudentDetailItem.schema) { request in
            let detail = try await request.run(ShowChild.self, .init(child: try request.parameter("childId")))
            return try .json(StudentDetailItem(detail, request.language))
        }
    }

    // MARK: Teacher (§7)

    static var teacherClasses: APIRoute {
        let item: APISchema = .object([("section_id", .id), ("section_name", .text), ("grade_name", .text), ("subject_name", .nullable(.text)),
                                       ("student_count", .integer(minimum: 0))])
        return APIRoute(.get, "/api/mobile/teacher/classes", summary: "The signed-in teacher's classes this year, one row per subject taught",
                        response: .list(of: item)) { request in
            let classes = try await request.run(ListTeacherClasses.self, .init())
            let language = request.language
            return try .json(["data": classes.map { taught in
                APIValue.object([
                    "section_id": .string(taught.classID), "section_name": .string(taught.className.text(in: language)),
                    "grade_name": .string(taught.yearLevelName.text(in: language)),
                    "subject_name": .optional(taught.subjectName?.text(in: language)), "student_count": .int(taught.studentCount),
                ])
            }])
        }
    }

    static var classStudents: APIRoute {
        let response: APISchema = .object([("data", .array(classStudentItem)), ("total", .integer(minimum: 0))])
        return APIRoute(.get, "/api/mobile/teacher/classes/:classId/students", summary: "The students of a class the caller teaches (or any, for staff)",
                        response: response) { request in
            let students = try await request.run(ListClassStudents.self, .init(classID: try request.parameter("classId")))
            return try .json(APIValue.object(["data": .array(students.map(classStudent)), "total": .int(students.count)]))
        }
    }

    static let classStudentItem: APISchema = .object([
        ("id", .id), ("given_name", .text), ("family_name", .text), ("gr_number", .text), ("gender", .nullable(.values(of: Gender.self))),
        ("photo_url", .nullable(.text)),
    ])

    static func classStudent(_ student: Student) -> APIValue {
        .object(["id": .string(student.id), "given_name": .string(student.givenName), "family_name": .string(student.surname),
                 "gr_number": .string(student.grNumber), "gender": .optional(student.gender?.rawValue), "photo_url": .null])
    }

    // MARK: Admin (§12)

    static let classFields: [(String, APISchema)] = [
        ("id", .id), ("name", .text), ("letter", .nullable(.text)), ("max_capacity", .integer(minimum: 1)), ("student_count", .integer(minimum: 0)),
        ("grade", .object([("id", .id), ("name", .text), ("number", .integer())])),
        ("homeroom_teacher", .nullable(.object([("id", .id), ("name", .text)]))),
        ("classroom", .nullable(.object([("id", .id), ("name", .text)]))),
    ]

    /// We keep no classroom for a class: `classroom` is null. A grade's `number` is its year level's position.
    static func classValue(_ summary: ClassSummary, _ language: Language) -> [String: APIValue] {
        [
            "id": .string(summary.id), "name": .string(summary.name.text(in: language)), "letter": .optional(summary.letter),
            "max_capacity": .int(summary.capacity), "student_count": .int(summary.studentCount),
            "grade": .object(["id": .string(summary.yearLevelID), "name": .string(summary.yearLevelName.text(in: language)),
                              "number": .int(summary.yearLevelPosition)]),
            "homeroom_teacher": summary.homeroomTeacherID.map { .object(["id": .string($0), "name": .string(summary.homeroomTeacherName ?? "")]) } ?? .null,
            "classroom": .null,
        ]
    }

    static var adminClasses: APIRoute {
        APIRoute(.get, "/api/mobile/admin/classes", summary: "This year's classes (sections), for administrators", query: APIParameter.paging,
                 response: .page(of: .object(classFields))) { request in
            let paging = try request.paging(defaultPerPage: 50)
            let page = try await request.run(BrowseClasses.self, .init(offset: paging.offset, limit: paging.perPage))
            let language = request.language
            return try .json(APIPage(data: page.classes.map { APIValue.object(classValue($0, language)) }, total: page.total, paging: paging))
        }
    }

    static var adminClass: APIRoute {
        APIRoute(.get, "/api/mobile/admin/classes/:id", summary: "One class with its students, for administrators",
                 response: .object(classFields + [("students", .array(classStudentItem))])) { request in
            let detail = try await request.run(ShowClass.self, .init(classID: try request.parameter("id")))
            var value = classValue(detail.summary, request.language)
            value["students"] = .array(detail.students.map(classStudent))
            return try .json(APIValue.object(value))
        }
    }

    static var school: APIRoute {
        APIRoute(.get, "/api/mobile/admin/school", summary: "The caller's school and its totals",
                 response: .object([("id", .id), ("name", .text), ("name_en", .text), ("domain", .text), ("total_students", .integer(minimum: 0)),
                                    ("total_teachers", .integer(minimum: 0)), ("total_sections", .integer(minimum: 0))])) { request in
            let schoolID = try request.requireSchool()
            let totals = try await request.run(CountRoster.self, .init())
            let school = try await request.offload { try $0.school(schoolID) }
            return try .json(APIValue.object([
                "id": .string(school.id), "name": .string(school.name.ar), "name_en": .string(school.name.en), "domain": .string(school.slug),
                "total_students": .int(totals.students), "total_teachers": .int(totals.teachers), "total_sections": .int(totals.classes),
            ]))
        }
    }

    // MARK: Dashboard

    /// A guardian's number of children, a teacher's number of classes, an administrator's school totals.
    static var dashboard: DashboardContribution {
        DashboardContribution(fields: [("children_count", .integer(minimum: 0)), ("total_students", .integer(minimum: 0)),
                                       ("total_teachers", .integer(minimum: 0)), ("total_classes", .integer(minimum: 0))]) { request in
            switch request.principal.role {
            case .guardian:
                return ["children_count": .int(try await request.run(ListChildren.self, .init()).count)]
            case .teacher:
                return ["total_classes": .int(Set(try await request.run(ListTeacherClasses.self, .init()).map(\.classID)).count)]
            case .admin, .developer:
                let totals = try await request.run(CountRoster.self, .init())
                return ["total_students": .int(totals.students), "total_teachers": .int(totals.teachers), "total_classes": .int(totals.classes)]
            default:
                return [:]
            }
        }
    }

    static var adminStats: DashboardContribution {
        DashboardContribution(fields: [("total_students", .integer(minimum: 0)), ("total_teachers", .integer(minimum: 0)),
                                       ("total_guardians", .integer(minimum: 0)), ("total_sections", .integer(minimum: 0))]) { request in
            let totals = try await request.run(CountRoster.self, .init())
            return ["total_students": .int(totals.students), "total_teachers": .int(totals.teachers),
                    "total_guardians": .int(totals.guardians), "total_sections": .int(totals.classes)]
        }
    }
}
