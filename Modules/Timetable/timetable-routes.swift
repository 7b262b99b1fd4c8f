import Core
import Foundation

/// The timetable part of the mobile API (contract §7, §4's child timetable). Every list is this
/// week of the school's cycle (Week A or B, ...): the school week holding today, or on a day off
/// the coming one, with `?day=0..6` (0 = Sunday) for one weekday. Times read as the web app
/// wrote them: `1970-01-01THH:MM:00.000Z`, the school's clock time.
enum TimetableRoutes {
    static var all: [APIRoute] { [person, teacherSchedule, child] }

    static let dayParameter = APIParameter("day", .integer(minimum: 0, maximum: 6))

    /// One lesson of the caller's own teaching: no `teacher_name`, which would be the caller.
    struct TaughtLessonItem: Codable, Sendable {
        let id: String
        let dayOfWeek: Int
        let subjectName: String
        let sectionName: String
        let gradeName: String
        let classroom: String
        let periodName: String
        /// `1970-01-01THH:MM:00.000Z` (`clockTime`), as the web app wrote a time of day.
        let startTime: APIInstant
        let endTime: APIInstant

        init(_ lesson: WeekLesson, _ language: Language) {
            id = lesson.id
            dayOfWeek = lesson.day
            subjectName = lesson.subjectName.text(in: language)
            sectionName = lesson.className.text(in: language)
            gradeName = lesson.yearLevelName.text(in: language)
            classroom = lesson.room
            periodName = lesson.periodName.text(in: language)
            startTime = APIInstant(TimetableRoutes.clockTime(lesson.startsAt))
            endTime = APIInstant(TimetableRoutes.clockTime(lesson.endsAt))
        }
    }

    /// Who teaches a lesson, on a student's or a child's timetable.
    struct LessonTeacher: Codable, Sendable {
        let teacherName: String
    }

    /// One lesson of a student's or a child's timetable: the lesson's keys and who teaches it. Two
    /// types, so each route's schema says exactly which keys are there.
    typealias LessonItem = APIMerged<TaughtLessonItem, LessonTeacher>

    static func lessonWithTeacher(_ lesson: WeekLesson, _ language: Language) -> LessonItem {
        LessonItem(TaughtLessonItem(lesson, language), LessonTeacher(teacherName: lesson.teacherName))
    }

    private static var person: APIRoute {
        APIRoute(.get, "/api/mobile/timetable/:userId",
                 summary: "This week's lessons of a student (by id or account id) or a teacher (by account id): the person themself, a student's guardians, teachers and staff who may see that student, readers of every timetable for a teacher",
                 query: [dayParameter], response: .of(APIList<LessonItem>.self)) { request in
            try await lessons(request, .init(whose: .person, reference: try request.parameter("userId"), day: try day(request)), as: lessonWithTeacher)
        }
    }

    private static var teacherSchedule: APIRoute {
        APIRoute(.get, "/api/mobile/teacher/schedule", summary: "This week's lessons the caller teaches (teachers, admins, developers; 404 when they teach nothing)",
                 query: [dayParameter], response: .of(APIList<TaughtLessonItem>.self)) { request in
            try await lessons(request, .init(whose: .teaching, day: try day(request)), as: TaughtLessonItem.init)
        }
    }

    private static var child: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId/timetable", summary: "This week's lessons of one of the caller's children (guardians only)",
                 query: [dayParameter], response: .of(APIList<LessonItem>.self)) { request in
            try await lessons(request, .init(whose: .child, reference: try request.parameter("childId"), day: try day(request)), as: lessonWithTeacher)
        }
    }

    private static func day(_ request: APIRequest) throws -> Int? {
        try request.queryInteger("day", in: 0...6)
    }

    private static func lessons<Item: Codable & Sendable>(_ request: APIRequest, _ input: WeekLessons.Input,
                                                          as item: (WeekLesson, Language) -> Item) async throws -> APIResponse {
        let output = try await request.run(WeekLessons.self, input)
        let language = request.language
        return try .json(APIList(output.lessons.map { item($0, language) }))
    }

    /// `07:45` → `1970-01-01T07:45:00.000Z`, as the web app stored a time of day.
    static func clockTime(_ time: String) -> String { "1970-01-01T\(time):00.000Z" }

    /// STUDENT and TEACHER: `today_classes`, how many lessons they have today (0 on a day off).
    static var dashboard: DashboardContribution {
        DashboardContribution(fields: [("today_classes", .integer(minimum: 0))]) { request in
            guard [.student, .teacher].contains(request.principal.role) else { return [:] }
            let today = try await request.run(WeekLessons.self, .init(whose: .mine, when: .today))
            return ["today_classes": .int(today.lessons.count)]
        }
    }
}
