import ArgumentParser
import Core
import Foundation

/// Messages: direct, group, class and announcement conversations within a school.
public struct MessagesModule: AppModule, CommandLineModule, HTTPModule, SyncModule {
    public init() {}

    public let id: ModuleID = "messages"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "bubble.left.and.bubble.right" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0"), ModuleDependency("auth", "^1.0.0")] }
    public var permissions: [PermissionDefinition] { MessagesPermissions.definitions }
    public var migrations: [Migration] { MessagesMigrations.all }
    public var ownedTables: [String] { ["messages_conversations", "messages_messages", "messages_participants"] }
    public var actions: [any Action.Type] {
        [StartConversation.self, ListConversations.self, UpdateMembership.self, SendMessage.self, ShowConversation.self, PageMessages.self,
         EditMessage.self, DeleteMessage.self, SearchMessages.self, MessagesStats.self, ListRecipients.self]
    }
    public var routes: [APIRoute] { MessagesRoutes.all }
    public var dashboard: DashboardContribution? { MessagesRoutes.dashboard }
    public var adminStats: DashboardContribution? { MessagesRoutes.adminStats }
    public var commands: [any ParsableCommand.Type] { [MessagesCommand.self] }
    public var publishedEvents: [any DomainEvent.Type] { [MessageSent.self] }
    public var syncEntities: [SyncEntityType] { MessagesSync.entities }
    public var syncMutations: [SyncMutation] { MessagesSync.mutations }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)

    public func seedDemo(_ context: ActionContext, size: DemoSize) throws {
        guard size == .full else { return }
        try MessagesDemo.seed(context)
    }
}

/// A few real conversations: the parent and the homeroom teacher, a class conversation for 7A
/// and a school announcement, in Arabic.
enum MessagesDemo {
    static func seed(_ context: ActionContext) throws {
        func principal(_ email: String) throws -> Principal? {
            guard let row = try context.database.fetchOne("SELECT id, role, display_name FROM auth_v1_people WHERE school_id = :school_id AND email = :email",
                                                          ["email": .text(email)]) else { return nil }
            return Principal(userID: row.string("id"), role: Role(rawValue: row.string("role")) ?? .user, schoolID: context.school.id, displayName: row.string("display_name"))
        }
        guard let parent = try principal("parent@databayt.org"), let teacher = try principal("teacher@databayt.org"),
              let admin = try principal("admin@databayt.org") else { return }
        let asParent = try context.acting(as: parent)
        let direct = try StartConversation().perform(.init(kind: .direct, participants: ["teacher@databayt.org"]), in: asParent).id
        let earlier = context.now.addingTimeInterval(-3 * 3600)
        // History from earlier today: stored at its own time, which a user's send would clamp.
        _ = try SendMessage().store(.init(conversation: direct, body: "السلام عليكم أستاذة، هل يمكن أن أعرف موعد امتحان الرياضيات؟"),
                                    sentAt: earlier, asParent)
        _ = try SendMessage().store(.init(conversation: direct, body: "وعليكم السلام، الامتحان يوم الأحد القادم إن شاء الله."),
                                    sentAt: earlier.addingTimeInterval(1800), try context.acting(as: teacher))
        let asTeacher = try context.acting(as: teacher)
        let classConversation = try StartConversation().perform(.init(kind: .class, title: "7A", classCode: "7A"), in: asTeacher).id
        _ = try SendMessage().perform(.init(conversation: classConversation, body: "تذكير: إحضار أدوات الهندسة غدًا."), in: asTeacher)
        let asAdmin = try context.acting(as: admin)
        let announcement = try StartConversation().perform(.init(kind: .announcement, title: "إعلان", audience: "all"), in: asAdmin).id
        _ = try SendMessage().perform(.init(conversation: announcement, body: "عطلة منتصف الفصل من 1 إلى 5 نوفمبر."), in: asAdmin)
    }
}
