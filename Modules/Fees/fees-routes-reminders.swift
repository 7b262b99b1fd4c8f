import Core
import Foundation

/// `PUT /api/v1/fees/reminders`: a guardian turns fee reminders off, or on again, for one child.
enum FeesReminderRoutes {
    struct Change: Decodable {
        let studentId: String
        let enabled: Bool
    }

    struct Answer: Codable, Sendable {
        let grNumber: String
        let name: String
        let enabled: Bool
    }

    static var reminders: APIRoute {
        APIRoute(.put, "/api/v1/fees/reminders",
                 summary: "Turns fee reminders off or on for one of the caller's children (guardians; another child is 404)",
                 body: .object([("student_id", .id), ("enabled", .boolean)]),
                 response: .of(Answer.self)) { request in
            let change = try request.decode(Change.self)
            let result = try await request.run(SetFeeReminders.self, .init(student: change.studentId, enabled: change.enabled))
            return try .json(Answer(grNumber: result.grNumber, name: result.name, enabled: result.enabled))
        }
    }
}
