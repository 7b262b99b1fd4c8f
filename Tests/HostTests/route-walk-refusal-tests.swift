import Auth
import Core
import Foundation
import HogwartsTestSupport
import Messages
import Notifications
import Students
import Testing

/// Walks every route of every built-in module (the host's generated list) as each role of the
/// demo school that reaches less than the whole school, once with the demo's real ids (in the
/// path and in a body) and once with random ids, and holds the API to what it promises:
/// - a row that exists but is out of reach answers exactly like one that does not exist (same
///   status, code and text once each answer's own ids are blanked);
/// - no error answer names a student the caller may not see;
/// - no error answer speaks in command-line terms (`--flag`, `hogwarts ...`).
@Suite("Every route: out of scope reads like nothing, in API terms", .waitsOnProcesses, .serialized)
struct RouteWalkRefusalTests {
    /// Roles narrower than the school; the test harness's person of each role teaches no class,
    /// has no child and is no student, so every demo row is out of their reach.
    static let narrowRoles: [Role] = [.teacher, .student, .guardian, .accountant, .user]

    @Test("foreign and unknown ids answer alike; errors name no one out of reach and no command-line flag", arguments: narrowRoles)
    func foreignReadsLikeUnknown(role: Role) async throws {
        let walk = try TwoSchoolWalk()
        let real = try RealIDs(walk)
        let principal = walk.harness.user(role, in: walk.demo)
        let names = try real.studentNames
        try await walk.harness.api { api in
            for (_, route) in api.server.routes {
                let random = RealIDs.randomValues()
                let (foreignPath, foreignIDs) = real.fill(route.path)
                let (randomPath, randomIDs) = RealIDs.fill(route.path, with: random)
                let hasBody = route.method != .get && route.method != .delete
                let foreign = try await api.request(.init(rawValue: route.method.rawValue) ?? .get, foreignPath, as: principal,
                                                    json: hasBody ? real.body : nil)
                let unknown = try await api.request(.init(rawValue: route.method.rawValue) ?? .get, randomPath, as: principal,
                                                    json: hasBody ? RealIDs.body(random) : nil)
                let label = "\(route.method.rawValue) \(route.path) as \(role.rawValue): \(foreign.status) \(foreign.text.prefix(240)) | \(unknown.status) \(unknown.text.prefix(240))"
                // Refused with a real id: the refusal must not differ from a random id's.
                if [403, 404].contains(foreign.status) {
                    #expect(foreign.refusal(asked: foreignIDs) == unknown.refusal(asked: randomIDs), "\(label)")
                }
                for answer in [foreign, unknown] where answer.status >= 400 {
                    let text = answer.object["error"] as? String ?? ""
                    #expect(!names.contains { text.contains($0) }, "a name out of reach: \(label)")
                    #expect(!Self.speaksCommandLine(text), "command-line words in an API error: \(label)")
                }
            }
        }
    }

    /// Whether a text names a flag (`--student`) or a command (`hogwarts students list`).
    static func speaksCommandLine(_ text: String) -> Bool {
        text.contains("hogwarts ") || text.range(of: #"(^|[\s(\x{200E}])--[a-z]"#, options: .regularExpression) != nil
    }
}

/// The demo's real ids to name in paths and bodies, beside random ones.
struct RealIDs {
    let walk: TwoSchoolWalk
    let conversation: String
    let notification: String

    init(_ walk: TwoSchoolWalk) throws {
        self.walk = walk
        // The demo guardian's own conversations and notifications: rows that exist but are not
        // the walking person's.
        let parent = try Self.account("parent@databayt.org", walk)
        conversation = try walk.harness.kernel.run(ListConversations.self, .init(), as: parent, in: walk.demo.id).first?.id ?? UUID().uuidString
        notification = try walk.harness.kernel.run(ListNotifications.self, .init(), as: parent, in: walk.demo.id).notifications.first?.id
            ?? UUID().uuidString
    }

    /// Every demo student's full name: none of them is the walking person's to see.
    var studentNames: [String] {
        get throws {
            try walk.harness.kernel.run(ListStudents.self, .init(), as: walk.harness.user(.admin, in: walk.demo), in: walk.demo.id)
                .students.map(\.fullName)
        }
    }

    var values: [String: String] {
        ["student": walk.student.id, "class": walk.schoolClass.id, "conversation": conversation, "notification": notification,
         "other": "00000000-0000-0000-0000-000000000000"]
    }

    /// A body naming the demo's student and class under the names the routes read.
    var body: [String: Any] { Self.body(values) }

    func fill(_ path: String) -> (String, [String]) { Self.fill(path, with: values) }

    static func randomValues() -> [String: String] {
        Dictionary(uniqueKeysWithValues: ["student", "class", "conversation", "notification", "other"].map { ($0, UUID().uuidString.lowercased()) })
    }

    static func body(_ ids: [String: String]) -> [String: Any] {
        let student = ids["student"] ?? "", schoolClass = ids["class"] ?? ""
        return ["student_id": student, "section_id": schoolClass, "class_id": schoolClass, "attendance_id": ids["other"] ?? "",
                "status": "ABSENT", "reason": "OTHER", "content": "hello", "participant_ids": [student],
                "records": [["student_id": student, "status": "ABSENT"]]]
    }

    /// The path with each `:parameter` replaced by the id of its kind, and the ids used.
    static func fill(_ path: String, with ids: [String: String]) -> (String, [String]) {
        var used: [String] = []
        let filled = path.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            guard part.hasPrefix(":") else { return String(part) }
            let name = part.lowercased()
            let kind = name.contains("class") || name.contains("section") ? "class"
                : name.contains("student") || name.contains("child") || name.contains("user") ? "student"
                : name.contains("conversation") ? "conversation" : name.contains("notification") ? "notification" : "other"
            let id = ids[kind] ?? ""
            used.append(id)
            return id
        }.joined(separator: "/")
        return (filled, used + ids.values.filter { !used.contains($0) })
    }

    private static func account(_ email: String, _ walk: TwoSchoolWalk) throws -> Principal {
        let result = try walk.harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: walk.demo.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: walk.demo.id, displayName: user.displayName)
    }
}
