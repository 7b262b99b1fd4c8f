import Core
import Foundation

/// The subjects catalog (§11): `GET /subjects`, `/subjects/:id` and `/subjects/my-subjects`.
/// We keep subjects, the classes and year levels they are taught in, and their teachers; not the
/// web app's course content (chapters, lessons, videos, ratings), which answer empty or zero.
enum StudentsSubjectRoutes {
    static var all: [APIRoute] { [mine, list, detail] }

    static let teacherItem: APISchema = .object([
        ("id", .id), ("name", .nullable(.text)), ("section_id", .id), ("section", .text), ("grade", .text), ("grade_number", .integer()),
    ])

    static let listFields: [(String, APISchema)] = [
        ("id", .id), ("name", .text), ("slug", .text), ("department", .nullable(.text)), ("description", .nullable(.text)),
        ("thumbnail_url", .nullable(.text)), ("color", .nullable(.text)), ("levels", .array(.text)), ("grades", .array(.integer())),
        ("total_chapters", .integer(minimum: 0)), ("total_lessons", .integer(minimum: 0)), ("average_rating", .number),
        ("rating_count", .integer(minimum: 0)), ("code", .text), ("credits", .number), ("teachers", .array(teacherItem)),
    ]

    static let detailFields: [(String, APISchema)] = listFields + [
        ("grade_range", .nullable(.text)), ("curriculum", .nullable(.text)), ("country", .nullable(.text)), ("tags", .array(.text)),
        ("banner_url", .nullable(.text)), ("total_content", .integer(minimum: 0)), ("usage_count", .integer(minimum: 0)), ("status", .text),
        ("chapters", .array(.anyObject)), ("videos", .array(.anyObject)), ("materials", .array(.anyObject)), ("exams", .array(.anyObject)),
        ("assignments", .array(.anyObject)),
        ("question_stats", .object([("total", .integer(minimum: 0)), ("cards", .array(.anyObject))])),
    ]

    static let mineItem: APISchema = .object([
        ("id", .id), ("name", .text), ("slug", .text), ("department", .nullable(.text)), ("thumbnail_url", .nullable(.text)),
        ("teacher_name", .nullable(.text)),
    ])

    static func slug(_ subject: Subject) -> String { subject.code.lowercased() }

    static func teacher(_ row: SubjectTeaching, _ language: Language) -> APIValue {
        .object(["id": .string(row.teacherID), "name": .optional(row.teacherName), "section_id": .string(row.classID),
                 "section": .string(row.className.text(in: language)), "grade": .string(row.yearLevelName.text(in: language)),
                 "grade_number": .int(row.yearLevelPosition)])
    }

    static func listValue(_ entry: SubjectCatalogEntry, _ language: Language) -> [String: APIValue] {
        let levels = entry.yearLevels
        return [
            "id": .string(entry.subject.id), "name": .string(entry.subject.name.text(in: language)), "slug": .string(slug(entry.subject)),
            "department": .null, "description": .null, "thumbnail_url": .null, "color": .null,
            "levels": .array(levels.map { .string($0.name.text(in: language)) }), "grades": .array(levels.map { .int($0.position) }),
            "total_chapters": .int(0), "total_lessons": .int(0), "average_rating": .int(0), "rating_count": .int(0),
            "code": .string(entry.subject.code), "credits": .double(entry.subject.credits),
            "teachers": .array(entry.teaching.map { teacher($0, language) }),
        ]
    }

    static var list: APIRoute {
        APIRoute(.get, "/api/mobile/subjects", summary: "The school's subjects, with the year levels and classes they are taught in and their teachers",
                 query: [APIParameter("search", .string(maxLength: TextLimit.name)), APIParameter("department", .string(maxLength: TextLimit.name))],
                 response: .object([("data", .array(.object(listFields))), ("total", .integer(minimum: 0))])) { request in
            let search = try request.queryText("search", maxLength: TextLimit.name)
            // We keep no departments: a department filter matches no subject.
            let department = try request.queryText("department", maxLength: TextLimit.name)
            var entries: [SubjectCatalogEntry] = []
            if department == nil { entries = try await request.run(ListSubjectCatalog.self, .init(search: search)) }
            let language = request.language
            return try .json(APIValue.object(["data": .array(entries.map { .object(listValue($0, language)) }), "total": .int(entries.count)]))
        }
    }

    static var detail: APIRoute {
        APIRoute(.get, "/api/mobile/subjects/:id", summary: "One subject of the school's catalog, by id", response: .object(detailFields)) { request in
            let entry = try await request.run(ShowSubject.self, .init(subject: try request.parameter("id")))
            let language = request.language
            var value = listValue(entry, language)
            let levels = entry.yearLevels
            let range: String? = levels.isEmpty ? nil : levels.count == 1 ? levels[0].name.text(in: language)
                : "\(levels[0].name.text(in: language)) – \(levels[levels.count - 1].name.text(in: language))"
            value.merge([
                "grade_range": .optional(range), "curriculum": .null, "country": .null, "tags": .array([]), "banner_url": .null,
                "total_content": .int(0), "usage_count": .int(entry.teaching.count), "status": .string("PUBLISHED"),
                "chapters": .array([]), "videos": .array([]), "materials": .array([]), "exams": .array([]), "assignments": .array([]),
                "question_stats": .object(["total": .int(0), "cards": .array([])]),
            ]) { $1 }
            return try .json(APIValue.object(value))
        }
    }

    static var mine: APIRoute {
        APIRoute(.get, "/api/mobile/subjects/my-subjects",
                 summary: "The caller's own subjects this year (taught, or taught to them or their children), one row per teacher",
                 response: .list(of: mineItem)) { request in
            let entries = try await request.run(ListMySubjects.self, .init())
            let language = request.language
            return try .json(["data": entries.flatMap { entry -> [APIValue] in
                // One row per subject and teacher: a subject two children have with one teacher is one row.
                var seen: Set<String> = []
                return entry.teaching.compactMap { row -> APIValue? in
                    guard seen.insert(row.teacherID).inserted else { return nil }
                    return .object(["id": .string(entry.subject.id), "name": .string(entry.subject.name.text(in: language)),
                                    "slug": .string(slug(entry.subject)), "department": .null, "thumbnail_url": .null,
                                    "teacher_name": .optional(row.teacherName)])
                }
            }])
        }
    }
}
