import Announcements
import Attendance
import Auth
import Core
import Foundation
import Grades
import HogwartsTestSupport
import Messages
@testable import Notifications
import Students
import Testing

final class NotificationClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = (try? Date.ISO8601FormatStyle().parse("2026-11-22T06:00:00Z")) ?? Date()
    var now: Date { lock.withLock { current } }
    func advance(minutes: Double) { lock.withLock { current = current.addingTimeInterval(minutes * 60) } }
}

/// The demo school with everything that raises events, at 08:00 in Khartoum.
struct NotificationsFixture {
    let harness: TestHarness
    let school: School
    let clock = NotificationClock()

    init(modules extra: [any AppModule] = [AttendanceModule(), GradesModule(), MessagesModule()]) throws {
        let clock = self.clock
        let (harness, schools) = try TestHarness.withDemo(modules: [AuthModule(), StudentsModule(), NotificationsModule()] + extra, clock: { clock.now })
        self.harness = harness
        school = schools[0]
        try harness.kernel.setSetting("notifications.log-path", to: harness.directory.appending(path: "outbox.log").path, for: school.id, by: .localOperator)
    }

    var admin: Principal { harness.user(.admin, in: school) }
    var logPath: String { harness.directory.appending(path: "outbox.log").path }

    func account(_ email: String) throws -> Principal {
        let result = try harness.kernel.run(SignIn.self, .init(email: email, password: AuthDemo.password), as: .anonymous, in: school.id)
        guard let user = result.user else { throw AuthError.signInRefused }
        return Principal(userID: user.id, role: user.role, schoolID: school.id, displayName: user.displayName)
    }

    @discardableResult
    func run<A: Action>(_ action: A.Type, _ input: A.Input, as principal: Principal? = nil) throws -> A.Output {
        try harness.kernel.run(action, input, as: principal ?? admin, in: school.id)
    }

    /// One delivery pass, as a server's background job runs it.
    @discardableResult
    func deliver() throws -> DeliverOutbox.Output {
        try DeliverOutbox.run(harness.kernel, as: admin, in: school.id)
    }

    func inbox(_ principal: Principal, unread: Bool = true) throws -> [UserNotification] {
        try run(ListNotifications.self, .init(unreadOnly: unread), as: principal).notifications
    }

    /// The parent and their first child.
    func parentAndChild() throws -> (Principal, Student) {
        let parent = try account("parent@databayt.org")
        return (parent, try #require(try run(ListStudents.self, .init(), as: parent).students.first))
    }
}

@Suite("Notifications")
struct NotificationsTests {
    @Test("every string exists in Arabic and English")
    func strings() {
        #expect(NotificationsModule().strings.text("notifications.module.name", in: .ar) != nil)
        #expect(NotificationsModule().strings.missingTranslations.isEmpty)
    }

    @Test("a guardian hears at once when their child is marked absent, in both languages")
    func absence() throws {
        let fixture = try NotificationsFixture()
        let (parent, child) = try fixture.parentAndChild()
        let before = try fixture.inbox(parent).count
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let alert = try #require(try fixture.inbox(parent).first { $0.type == .attendanceAlert })
        #expect(try fixture.inbox(parent).count == before + 1)
        #expect(alert.priority == .high && alert.title.en.contains(child.givenName) && alert.title.ar.contains("غياب"))
        #expect(alert.link.contains(child.grNumber))
        let other = try fixture.account("teacher@databayt.org")
        #expect(try fixture.inbox(other).allSatisfy { $0.type != .attendanceAlert }, "only the child's guardians")
    }

    @Test("the guardian hears when the excuse is decided, and when the report card is published")
    func excuseAndReportCard() throws {
        let fixture = try NotificationsFixture()
        let (parent, child) = try fixture.parentAndChild()
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let excuse = try fixture.run(SubmitExcuse.self, .init(grNumber: child.grNumber, date: "2026-11-22", period: "P1", reason: .medical, description: "Fever"), as: parent)
        try fixture.run(ReviewExcuse.self, .init(excuse: excuse, approve: true))
        #expect(try fixture.inbox(parent).contains { $0.type == .excuseDecided && $0.title.en == "Excuse approved" })
        let quiz = try fixture.run(CreateAssessment.self, .init(code: "X1", classCode: child.classCode ?? "", subjectCode: "MATH", term: "Term 2", kind: .quiz,
                                                                title: "Spring quiz", date: "2027-02-10", maxMarks: 10, passingMarks: 5, category: "coursework"))
        try fixture.run(EnterResults.self, .init(assessment: quiz.code, lines: [ResultLine(student: child.grNumber, result: "8")]))
        #expect(try fixture.inbox(parent).contains { $0.type == .resultsPublished && $0.title.en.contains("Spring quiz") })
        try fixture.run(PublishReportCards.self, .init(term: "Term 2"))
        #expect(try fixture.inbox(parent).contains { $0.type == .reportCardPublished && $0.body.en.contains(child.grNumber) })
        let student = try fixture.account("student@databayt.org")
        #expect(try fixture.inbox(student).allSatisfy { $0.type != .reportCardPublished } || child.userID == student.userID,
                "another family's report card reaches no one else")
    }

    @Test("message recipients are notified unless they muted the conversation; the sender is not")
    func messages() throws {
        let fixture = try NotificationsFixture()
        let teacher = try fixture.account("teacher4@databayt.org")
        let parent = try fixture.account("parent@databayt.org")
        let conversation = try fixture.run(StartConversation.self, .init(kind: .direct, participants: ["parent@databayt.org"]), as: teacher).id
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "مرحبا"), as: teacher)
        #expect(try fixture.inbox(parent).filter { $0.type == .message && $0.link.contains(conversation) }.count == 1)
        #expect(try fixture.inbox(teacher).allSatisfy { !$0.link.contains(conversation) })
        try fixture.run(UpdateMembership.self, .init(conversation: conversation, muted: true), as: parent)
        try fixture.run(SendMessage.self, .init(conversation: conversation, body: "ثانية"), as: teacher)
        #expect(try fixture.inbox(parent).filter { $0.link.contains(conversation) }.count == 1, "muted")
    }

    @Test("a type switched off is not delivered; read, read-all and the 30-day expiry work")
    func preferencesAndReading() throws {
        let fixture = try NotificationsFixture()
        let (parent, child) = try fixture.parentAndChild()
        try fixture.run(NotificationPreferences.self, .init(type: "ATTENDANCE_ALERT", enabled: false), as: parent)
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        #expect(try fixture.inbox(parent).allSatisfy { $0.type != .attendanceAlert })
        let all = try fixture.inbox(parent)
        let first = try #require(all.first)
        try fixture.run(MarkNotificationsRead.self, .init(notification: String(first.id.prefix(8))), as: parent)
        #expect(try fixture.inbox(parent).count == all.count - 1)
        try fixture.run(MarkNotificationsRead.self, .init(), as: parent)
        #expect(try fixture.inbox(parent).isEmpty)
        fixture.clock.advance(minutes: 31 * 24 * 60)
        #expect(try fixture.inbox(parent, unread: false).isEmpty, "expired after 30 days")
    }

    @Test("the outbox delivers through the log file; failures are kept with their error and retried, never silent")
    func outbox() throws {
        let fixture = try NotificationsFixture()
        let (_, child) = try fixture.parentAndChild()
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let pending = try fixture.run(ListOutbox.self, .init())
        #expect(!pending.isEmpty && pending.allSatisfy { $0.state == "PENDING" })
        let delivered = try fixture.deliver()
        #expect(delivered.sent == pending.count && delivered.failed == 0)
        let log = try String(contentsOfFile: fixture.logPath, encoding: .utf8)
        #expect(log.split(separator: "\n").count == pending.count && log.contains(child.grNumber))
        #expect(try fixture.run(ListOutbox.self, .init()).isEmpty)

        // A log path that cannot be written: the error is recorded, retried with backoff, then FAILED.
        // A folder where the log file should be: every send fails until it is fixed.
        let folder = fixture.harness.directory.appending(path: "not-a-file")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try fixture.harness.kernel.setSetting("notifications.log-path", to: folder.path, for: fixture.school.id, by: .localOperator)
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P2", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        for _ in 0..<AdvanceOutbox.maxAttempts {
            _ = try fixture.deliver()
            fixture.clock.advance(minutes: 120)
        }
        let stuck = try fixture.run(ListOutbox.self, .init())
        #expect(!stuck.isEmpty && stuck.allSatisfy { $0.state == "FAILED" && ($0.lastError ?? "").contains(fixture.harness.directory.lastPathComponent) })
    }

    @Test("the outbox log holds message text about children: it is created readable by its owner only (0600)")
    func logFileIsPrivate() throws {
        let fixture = try NotificationsFixture()
        let (_, child) = try fixture.parentAndChild()
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P1", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        #expect(!FileManager.default.fileExists(atPath: fixture.logPath))
        #expect(try fixture.deliver().sent > 0)
        let mode = (try FileManager.default.attributesOfItem(atPath: fixture.logPath)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "mode \(String(mode ?? 0, radix: 8))")
    }

    @Test("three runners on three servers deliver the same outbox at once: each entry is sent once, and what a server's background pass finds later too")
    func outboxSentOnceByRacingRunners() async throws {
        let fixture = try NotificationsFixture()
        let (_, child) = try fixture.parentAndChild()
        for period in ["P1", "P2", "P3", "P4", "P5"] {
            try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: period, marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        }
        let pending = try fixture.run(ListOutbox.self, .init())
        #expect(pending.count >= 5)
        let clock = fixture.clock
        let modules: [any AppModule] = [AuthModule(), StudentsModule(), NotificationsModule(), AttendanceModule(), GradesModule(), MessagesModule()]
        let servers = [fixture.harness.kernel] + (try (0..<2).map { _ in
            try Kernel(databasePath: fixture.harness.databasePath, modules: modules, language: .en, clock: { clock.now })
        })
        let (school, admin) = (fixture.school.id, fixture.admin)
        let sent = try await withThrowingTaskGroup(of: Int.self) { group in
            for kernel in servers {
                group.addTask { try DeliverOutbox.run(kernel, as: admin, in: school).sent }
            }
            return try await group.reduce(0, +)
        }
        #expect(sent == pending.count, "the runners' reports add up to each entry once")
        #expect(try String(contentsOfFile: fixture.logPath, encoding: .utf8).split(separator: "\n").count == pending.count)

        // A later absence is sent by a server's own background pass, once, whichever servers run it.
        try fixture.run(TakeAttendance.self, .init(classCode: child.classCode ?? "", period: "P6", marks: [AttendanceMark(student: child.grNumber, status: .absent)]))
        let later = try fixture.run(ListOutbox.self, .init()).count
        #expect(later > 0)
        await withTaskGroup(of: Void.self) { group in
            for kernel in servers { group.addTask { kernel.runBackgroundWork() } }
        }
        #expect(try fixture.run(ListOutbox.self, .init()).isEmpty)
        #expect(try String(contentsOfFile: fixture.logPath, encoding: .utf8).split(separator: "\n").count == pending.count + later)
    }

    @Test("quiet hours hold outside deliveries until they end")
    func quietHours() throws {
        let zone = TimeZone(identifier: "Africa/Khartoum") ?? .gmt
        let night = (try? Date.ISO8601FormatStyle().parse("2026-11-22T20:00:00Z")) ?? Date() // 22:00 local
        let held = QuietHours(from: "21:00", to: "07:00").end(after: night, zone: zone)
        #expect(held.timeIntervalSince(night) == 9 * 3600)
        #expect(QuietHours(from: "21:00", to: "07:00").end(after: night.addingTimeInterval(-3 * 3600), zone: zone) == night.addingTimeInterval(-3 * 3600))
        #expect(QuietHours(from: nil, to: nil).end(after: night, zone: zone) == night)
    }

    @Test("each event Notifications reads has the shape its publisher writes")
    func contracts() throws {
        /// Through the publisher's own type and back: the names match and every field survives both ways.
        func roundTrip<Publisher: DomainEvent, Mirror: DomainEvent & Equatable>(_ mirror: Mirror, through publisher: Publisher.Type) throws {
            #expect(Publisher.name == Mirror.name)
            let published = try JSONDecoder().decode(Publisher.self, from: try JSONEncoder().encode(mirror))
            #expect(try JSONDecoder().decode(Mirror.self, from: try JSONEncoder().encode(published)) == mirror)
        }
        try roundTrip(AbsenceRecorded(studentID: "s", grNumber: "g", studentName: "n", classCode: "c", date: "d", period: "p"), through: StudentMarkedAbsent.self)
        try roundTrip(ExcuseOutcome(excuseID: "e", studentID: "s", grNumber: "g", date: "d", approved: true, submittedBy: "u"), through: ExcuseDecided.self)
        try roundTrip(AssessmentResults(assessmentCode: "a", title: "t", classCode: "c", subjectCode: "s", studentIDs: ["x"]), through: ResultsPublished.self)
        try roundTrip(ReportCardReady(studentID: "s", grNumber: "g", term: "t"), through: ReportCardPublished.self)
        try roundTrip(MessageArrived(conversationID: "c", conversationTitle: "t", kind: "DIRECT", messageID: "m", senderName: "n", preview: "p", recipients: ["r"]),
                      through: MessageSent.self)
        try roundTrip(AnnouncementPosted(announcementID: "a", title: "t", priority: "high", authorName: "n", recipients: ["r"]), through: AnnouncementPublished.self)
    }

    @Test("without Attendance, Grades or Messages installed, Notifications still starts")
    func standsAlone() throws {
        let fixture = try NotificationsFixture(modules: [])
        #expect(try fixture.inbox(try fixture.account("parent@databayt.org")).isEmpty)
    }
}
