import Core
import Foundation

/// The subjects catalog (§11): `GET /subjects`, `/subjects/:id` and `/subjects/my-subjects`.
/// We keep subjects, the classes and year levels they are taught in, and their teachers; not the
/// web app's course content (chapters, lessons, videos, ratings), which answer empty or zero.
enum StudentsSubjectRoutes {
    static var all: [APIRoute] { [mine, list, detail] }

    static func slug(_ subject: Subject) -> String { subject.code.lowercased() }

    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/subjects", summary: "The school's subjects, with the year levels and classes they are taught in and their teachers",
                 query: [APIParameter("search", .string(maxLength: TextLimit.name)), APIParameter("department", .string(maxLength: TextLimit.name))],
                 response: .of(CountedList<SubjectItem>.self)) { request in
            let search = try request.queryText("search", maxLength: TextLimit.name)
            // We keep no departments: a department filter matches no subject.
            let department = try request.queryText("department", maxLength: TextLimit.name)
            var entries: [SubjectCatalogEntry] = []
            if department == nil { entries = try await request.run(ListSubjectCatalog.self, .init(search: search)) }
            let language = request.language
            return try .json(CountedList(entries.map { SubjectItem($0, language) }))
        }
    }

    /// The list item's keys and the detail's own.
    static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/subjects/:id", summary: "One subject of the school's catalog, by id",
                 response: .of(APIMerged<SubjectItem, SubjectDetailFields>.self)) { request in
            let entry = try await request.run(ShowSubject.self, .init(subject: try request.parameter("id")))
            let language = request.language
            return try .json(APIMerged(SubjectItem(entry, language), SubjectDetailFields(entry, language)))
        }
    }

    static var mine: APIRoute {
        APIRoute(.get, "/api/mobile/subjects/my-subjects",
                 summary: "The caller's own subjects this year (taught, or taught to them or their children), one row per teacher",
                 response: .of(APIList<MySubjectItem>.self)) { request in
            let entries = try await request.run(ListMySubjects.self, .init())
            let language = request.language
            return try .json(APIList(entries.flatMap { entry -> [MySubjectItem] in
                // One row per subject and teacher: a subject two children have with one teacher is one row.
                var seen: Set<String> = []
                return entry.teaching.compactMap { row -> MySubjectItem? in
                    guard seen.insert(row.teacherID).inserted else { return nil }
                    return MySubjectItem(entry.subject, teacherName: row.teacherName, language)
                }
            }))
        }
    }
}
