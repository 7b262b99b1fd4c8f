import Core
import Foundation

/// The timetable part of the mobile API (contract §7, §4's child timetable). Every list is this
/// week of the school's cycle (Week A or B, ...): the school week holding today, or on a day off
/// the coming one, with `?day=0..6` (0 = Sunday) for one weekday. Times read as the web app
/// wrote them: `1970-01-01THH:MM:00.000Z`, the school's clock time.
enum TimetableRoutes {
    static var all: [APIRoute] { [person, teacherSchedule, child] }

    static let dayParameter = APIParameter("day", .integer(minimum: 0, maximum: 6))

    static func item(withTeacher: Bool) -> APISchema {
        .object([("id", .id), ("day_of_week", .integer(minimum: 0, maximum: 6)), ("subject_name", .text)]
            + (withTeacher ? [("teacher_name", APISchema.text)] : [])
            + [("section_name", .text), ("grade_name", .text), ("classroom", .text), ("period_name", .text), ("start_time", .dateTime), ("end_time", .dateTime)])
    }

    /// One lesson; `teacher_name` is left out of the caller's own teaching schedule.
    struct LessonItem: Encodable, Sendable {
        let id: String
        let dayOfWeek: Int
        let subjectName: String
        let teacherName: String?
        let sectionName: String
        let gradeName: String
        let classroom: String
        let periodName: String
        let startTime: String
        let endTime: String

        init(_ lesson: WeekLesson, _ language: Language, withTeacher: Bool) {
            id = lesson.id
            dayOfWeek = lesson.day
            subjectName = lesson.subjectName.text(in: language)
            teacherName = withTeacher ? lesson.teacherName : nil
            sectionName = lesson.className.text(in: language)
            gradeName = lesson.yearLevelName.text(in: language)
            classroom = lesson.room
            periodName = lesson.periodName.text(in: language)
            startTime = TimetableRoutes.clockTime(lesson.startsAt)
            endTime = TimetableRoutes.clockTime(lesson.endsAt)
        }
    }

    struct Lessons: Encodable, Sendable {
        let data: [LessonItem]
    }

    private static var person: APIRoute {
        APIRoute(.get, "/api/mobile/timetable/:userId",
                 summary: "This week's lessons of a student (by id or account id) or a teacher (by account id): the person themself, a student's guardians, teachers and staff who may see that student, readers of every timetable for a teacher",
                 query: [dayParameter], response: .list(of: item(withTeacher: true))) { request in
            try await lessons(request, .init(whose: .person, reference: try request.parameter("userId"), day: try day(request)), withTeacher: true)
        }
    }

    private static var teacherSchedule: APIRoute {
        APIRoute(.get, "/api/mobile/teacher/schedule", summary: "This week's lessons the caller teaches (teachers, admins, developers; 404 when they teach nothing)",
                 query: [dayParameter], response: .list(of: item(withTeacher: false))) { request in
            try await lessons(request, .init(whose: .teaching, day: try day(request)), withTeacher: false)
        }
    }

    private static var child: APIRoute {
        APIRoute(.get, "/api/mobile/guardian/children/:childId/timetable", summary: "This week's lessons of one of the caller's children (guardians only)",
                 query: [dayParameter], response: .list(of: item(withTeacher: true))) { request in
            try await lessons(request, .init(whose: .child, reference: try request.parameter("childId"), day: try day(request)), withTeacher: true)
        }
    }

    private static func day(_ request: APIRequest) throws -> Int? {
        try request.queryInteger("day", in: 0...6)
    }

    private static func lessons(_ request: APIRequest, _ input: WeekLessons.Input, withTeacher: Bool) async throws -> APIResponse {
        let output = try await request.run(WeekLessons.self, input)
        return try .json(Lessons(data: output.lessons.map { LessonItem($0, request.language, withTeacher: withTeacher) }))
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
