import Auth
import Core
import Foundation
import Students

/// The demo's notices, in Arabic: a pinned one to the whole school from the administrator, one
/// to 7A from its teacher, and one scheduled for next week. They are history, already seen by
/// whoever was told, so seeding them sends no notifications.
enum AnnouncementsDemo {
    static func seed(_ context: ActionContext) throws {
        func principal(_ email: String) throws -> Principal? {
            try UserAccounts.find(email: email, in: context).map {
                Principal(userID: $0.id, role: $0.role, schoolID: context.school.id, displayName: $0.displayName)
            }
        }
        guard let admin = try principal("admin@databayt.org") else { return }
        let asAdmin = try context.acting(as: admin)
        func post(_ input: PostAnnouncement.Input, as poster: ActionContext, at time: Date) throws {
            let audience = try AnnouncementsAudience.resolve(input.audience, poster)
            _ = try PostAnnouncement.store(input, audience: audience, publishAt: time, announced: time <= context.now, poster)
        }
        try post(.init(title: "بداية الفصل الدراسي الثاني", content: "يبدأ الفصل الدراسي الثاني يوم الأحد. نرجو الالتزام بمواعيد الحضور والزي المدرسي.",
                       priority: .high, pinned: true), as: asAdmin, at: context.now.addingTimeInterval(-2 * 86_400))
        try post(.init(title: "اجتماع أولياء الأمور", content: "اجتماع أولياء الأمور يوم الخميس القادم الساعة الخامسة مساءً في قاعة المدرسة."),
                 as: asAdmin, at: context.now.addingTimeInterval(7 * 86_400))
        if let teacher = try principal("teacher@databayt.org"), (try? Roster.classID(code: "7A", context)) != nil {
            try post(.init(title: "رحلة علمية", content: "رحلة الصف السابع أ إلى المتحف العلمي يوم الثلاثاء. أحضروا موافقة ولي الأمر.", audience: "class:7A"),
                     as: try context.acting(as: teacher), at: context.now.addingTimeInterval(-3600))
        }
    }
}
