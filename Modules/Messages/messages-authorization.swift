import Core

/// Who may start which conversation. The web app's table (admins all; teachers direct, group and
/// class; students and staff direct and group; guardians direct only) is kept. It let
/// accountants start direct, group and department conversations while the PRD's matrix says they
/// may not send: we follow the PRD for starting (accountants start nothing) and the web app for
/// taking part (anyone added to a conversation may reply, unless they are read-only there).
public enum MessagesPermissions {
    /// Read and send in one's own conversations.
    public static let use: Permission = "messages.use"
    public static let start: Permission = "messages.start"
    /// School totals (how many conversations), for the administrators' dashboard.
    public static let stats: Permission = "messages.stats"

    static var definitions: [PermissionDefinition] {
        let members: [Role] = [.developer, .admin, .teacher, .student, .guardian, .accountant, .staff]
        return [
            PermissionDefinition(use, summary: LocalizedText(ar: "قراءة الرسائل وإرسالها", en: "Read and send messages"),
                                 grants: Dictionary(uniqueKeysWithValues: members.map { ($0, AccessScope.ownRecord) })),
            PermissionDefinition(start, summary: LocalizedText(ar: "بدء محادثة", en: "Start a conversation"),
                                 grants: Dictionary(uniqueKeysWithValues: [Role.developer, .admin, .teacher, .student, .guardian, .staff].map { ($0, AccessScope.ownRecord) })),
            PermissionDefinition(stats, summary: LocalizedText(ar: "إحصاءات المحادثات في المدرسة", en: "The school's conversation totals"), grants: .administrators),
        ]
    }

    /// The kinds each role may start.
    public static func kinds(for role: Role) -> Set<ConversationKind> {
        switch role {
        case .developer, .admin: Set(ConversationKind.allCases)
        case .teacher: [.direct, .group, .class]
        case .student, .staff: [.direct, .group]
        case .guardian: [.direct]
        case .accountant, .user: []
        }
    }
}
