import ArgumentParser
import Auth
import Core
import Foundation
import Students

/// Events: the school calendar. The school's events (for everyone or one class, with
/// registration and a waiting list), shown beside the timetable's holidays and Grades' exam dates
/// where those modules are on, in the apps, the console, and a calendar feed phones subscribe to.
public struct EventsModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = "events"
    public let version = SemanticVersion(0, 1, 0)
    public var iconName: String { "calendar" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("auth", "^1.0.0"), ModuleDependency("students", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { EventsPermissions.definitions }
    public var migrations: [Migration] { EventsMigrations.all }
    /// Every table the migrations create: only this module's code may name them.
    public var ownedTables: [String] { ["events_items", "events_registrations", "events_feeds"] }
    public var actions: [any Action.Type] {
        [CreateEvent.self, ListCalendar.self, UpcomingCalendar.self, ShowCalendarEntry.self, RegisterForEvent.self, LeaveEvent.self,
         CancelEvent.self, MakeCalendarFeed.self, ReadCalendarFeed.self]
    }
    public var commands: [any ParsableCommand.Type] { [EventsCommand.self] }
    public var routes: [APIRoute] { EventsRoutes.all }
    public var syncEntities: [SyncEntityType] { EventsSync.entities }
    public var syncScopes: SyncScopeRule? { EventsSync.scopes }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    /// A school sports day with registration, a class trip for 7A, and a parents' meeting.
    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        try EventsDemo.seed(context)
    }
}

/// The demo's events, in Arabic, in the weeks after the demo's day.
enum EventsDemo {
    static func seed(_ context: ActionContext) throws {
        guard let row = try context.database.fetchOne("SELECT id, display_name FROM auth_v1_people WHERE school_id = :school_id AND email = 'admin@databayt.org'")
        else { return }
        let admin = try context.acting(as: Principal(userID: row.string("id"), role: .admin, schoolID: context.school.id, displayName: row.string("display_name")))
        let today = context.today
        func day(_ offset: Int) -> String { today.adding(days: offset).description }
        _ = try CreateEvent().perform(.init(title: "اليوم الرياضي", description: "سباقات وألعاب جماعية لجميع الصفوف.", type: .sports, startsOn: day(10),
                                            startTime: "08:00", endTime: "12:00", location: "ملعب المدرسة", registrationRequired: true, maxAttendees: 200), in: admin)
        _ = try CreateEvent().perform(.init(title: "اجتماع أولياء الأمور", type: .meeting, startsOn: day(14), startTime: "17:00", endTime: "19:00",
                                            location: "قاعة المدرسة"), in: admin)
        if (try? Roster.classID(code: "7A", context)) != nil {
            _ = try CreateEvent().perform(.init(title: "رحلة إلى المتحف العلمي", type: .trip, startsOn: day(5), location: "المتحف العلمي",
                                                classCode: "7A", registrationRequired: true, maxAttendees: 30), in: admin)
        }
    }
}
