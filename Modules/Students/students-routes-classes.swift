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
        APIRoute(.get, "/api/mobile/guardian/children", summary: "The signed-in guardian's children",
                 response: .of(APIList<ChildItem>.self)) { request in
            let children = try await request.run(ListChildren.self, .init())
            let language = request.language
            return try .json(APIList(children.map { ChildItem($0, language) }))
        }
    }

    static var child: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId", summary: "One of the signed-in guardian's children (the student detail)",
                 response: .of(StudentDetailItem.self)) { request in
            let detail = try await request.run(ShowChild.self, .init(child: try request.parameter("childId")))
            return try .json(StudentDetailItem(detail, request.language))
        }
    }

    // MARK: Teacher (§7)

    static var teacherClasses: APIRoute {
        APIRoute(.get, "/api/mobile/teacher/classes", summary: "The signed-in teacher's classes this year, one row per subject taught",
                 response: .of(APIList<TaughtClassItem>.self)) { request in
            let classes = try await request.run(ListTeacherClasses.self, .init())
            let language = request.language
            return try .json(APIList(classes.map { TaughtClassItem($0, language) }))
        }
    }

    static var classStudents: APIRoute {
        APIRoute(.get, "/api/mobile/teacher/classes/:classId/students", summary: "The students of a class the caller teaches (or any, for staff)",
                 response: .of(CountedList<ClassStudentItem>.self)) { request in
            let students = try await request.run(ListClassStudents.self, .init(classID: try request.parameter("classId")))
            return try .json(CountedList(students.map(ClassStudentItem.init)))
        }
    }

    // MARK: Admin (§12)

    static var adminClasses: APIRoute {
        APIRoute(.get, "/api/mobile/admin/classes", summary: "This year's classes (sections), for administrators", query: APIParameter.paging,
                 response: .of(APIPage<ClassItem>.self)) { request in
            let paging = try request.paging(defaultPerPage: 50)
            let page = try await request.run(BrowseClasses.self, .init(offset: paging.offset, limit: paging.perPage))
            let language = request.language
            return try .json(APIPage(data: page.classes.map { ClassItem($0, language) }, total: page.total, paging: paging))
        }
    }

    /// The list item's keys and the class's students.
    static var adminClass: APIRoute {
        APIRoute(.get, "/api/mobile/admin/classes/:id", summary: "One class with its students, for administrators",
                 response: .of(APIMerged<ClassItem, ClassStudents>.self)) { request in
            let detail = try await request.run(ShowClass.self, .init(classID: try request.parameter("id")))
            return try .json(APIMerged(ClassItem(detail.summary, request.language), ClassStudents(students: detail.students.map(ClassStudentItem.init))))
        }
    }

    static var school: APIRoute {
        APIRoute(.get, "/api/mobile/admin/school", summary: "The caller's school and its totals", response: .of(SchoolItem.self)) { request in
            let schoolID = try request.requireSchool()
            let totals = try await request.run(CountRoster.self, .init())
            let school = try await request.offload { try $0.school(schoolID) }
            return try .json(SchoolItem(id: school.id, name: school.name.ar, nameEn: school.name.en, domain: school.slug,
                                        totalStudents: totals.students, totalTeachers: totals.teachers, totalSections: totals.classes))
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
