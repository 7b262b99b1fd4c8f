import Attendance
import Auth
import Core
import Foundation
import HogwartsTestSupport
import Students
import Timetable

/// Hears the attendance events, the way Notifications will, so tests can see they were raised.
struct EventLog: AppModule {
    struct Entry: Codable, Sendable { let kind: String; let detail: String }

    struct Read: Action {
        struct Input: Codable, Sendable {}
        static let id = "event-log.read"
        static let permission: Permission = "event-log.read"
        static let isReadOnly = true
        func perform(_ input: Input, in context: ActionContext) throws -> [Entry] {
            try context.database.fetchAll("SELECT kind, detail FROM event_log_entries WHERE school_id = :school_id ORDER BY kind, detail")
                .map { Entry(kind: $0.string("kind"), detail: $0.string("detail")) }
        }
    }

    /// Every attendance record and change row as plain text, so tests compare what is stored.
    struct Dump: Action {
        struct Input: Codable, Sendable {}
        struct Output: Codable, Sendable, Equatable {
            /// `gr|name|class|date|period|status|method|marked_by|notes`, sorted.
            let records: [String]
            /// `gr|date|period|previous|status|changed_by`, sorted.
            let changes: [String]
        }
        static let id = "event-log.dump"
        static let permission: Permission = "event-log.read"
        static let isReadOnly = true
        func perform(_ input: Input, in context: ActionContext) throws -> Output {
            // A probe of Attendance's own tables: it reads them as Attendance's code, and the roster through Students' views.
            try context.published(by: "attendance") {
                let records = try context.database.fetchAll("""
                    SELECT s.gr_number || '|' || s.given_name || ' ' || s.surname || '|' || c.code || '|' || r.date || '|' || r.period || '|' || r.status
                        || '|' || r.method || '|' || r.marked_by || '|' || COALESCE(r.notes, '') AS line
                    FROM attendance_records r JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id
                    JOIN students_v1_classes c ON c.school_id = r.school_id AND c.id = r.class_id WHERE r.school_id = :school_id
                    """).map { $0.string("line") }
                let changes = try context.database.fetchAll("""
                    SELECT s.gr_number || '|' || r.date || '|' || r.period || '|' || h.previous_status || '|' || h.status || '|' || h.changed_by AS line
                    FROM attendance_changes h JOIN attendance_records r ON r.school_id = h.school_id AND r.id = h.record_id
                    JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id WHERE h.school_id = :school_id
                    """).map { $0.string("line") }
                return Output(records: records.sorted(), changes: changes.sorted())
            }
        }
    }

    let id: ModuleID = "event-log"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("attendance", "^1.0.0")] }
    var migrations: [Migration] { [Migration("001", sql: "CREATE TABLE event_log_entries (school_id TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL);")] }
    var permissions: [PermissionDefinition] { [PermissionDefinition("event-log.read", summary: LocalizedText(ar: "س", en: "r"), grants: .administrators)] }
    var actions: [any Action.Type] { [Read.self, Dump.self] }
    var eventHandlers: [EventHandler] {
        [
            EventHandler("event-log.absent", on: StudentMarkedAbsent.self) { event, context in
                try context.database.insert(into: "event_log_entries", ["kind": "absent", "detail": .text("\(event.grNumber) \(event.date) \(event.period)")])
            },
            EventHandler("event-log.excuse", on: ExcuseDecided.self) { event, context in
                try context.database.insert(into: "event_log_entries", ["kind": "excuse", "detail": .text("\(event.grNumber) \(event.approved)")])
            },
        ]
    }
    var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
}

final class MovableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ iso: String) { current = (try? Date.ISO8601FormatStyle().parse(iso)) ?? Date() }
    var now: Date { lock.withLock { current } }
    func advance(minutes: Double) { lock.withLock { current = current.addingTimeInterval(minutes * 60) } }
}

/// The demo school on Sunday 22 November 2026 at 08:00 in Khartoum (06:00 UTC), period 1 running.
struct AttendanceFixture {
    let harness: TestHarness
    let school: School
    let clock: MovableClock

    /// - Parameter more: modules beside Attendance's own (ID cards, for a check-in by card).
    init(at time: String = "2026-11-22T06:00:00Z", with more: [any AppModule] = []) throws {
        let clock = MovableClock(time)
        self.clock = clock
        let (harness, schools) = try TestHarness.withDemo(modules: [AuthModule(), StudentsModule(), TimetableModule(), AttendanceModule(), EventLog()] + more,
                                                          clock: { clock.now })
        self.harness = harness
        school = schools[0]
    }

    var admin: Principal { harness.user(.admin, in: school) }

    func account(_ email: String) throws -> Principal {
        let result = try harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: school.id)
    }

    func register(_ classCode: String, date: String? = nil, period: String? = "P1") throws -> [ClassRegister.Line] {
        try run(ClassRegister.self, .init(classCode: classCode, date: date, period: period)).lines
    }

    func events() throws -> [EventLog.Entry] { try run(EventLog.Read.self, .init()) }
}
