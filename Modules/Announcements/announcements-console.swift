import Core
import Foundation

extension AnnouncementsModule: ConsoleModule {
    /// The school's notice board, with a form for those who post, and the newest notices on the home page.
    public var consolePages: [ConsolePage] { [AnnouncementsConsole.board] }
    public var consoleCards: [ConsoleCard] { [AnnouncementsConsole.latest] }
}

/// The console runs the module's own actions, so the kernel checks who may read and post, and
/// which audience a teacher may address, exactly as for the API and the commands.
enum AnnouncementsConsole {
    static let board = ConsolePage("board", title: Words.title, permission: AnnouncementsPermissions.read) { console in
        guard console.isPost else { return try await page(console, notice: noticeText(console)) }
        if let id = console.form.value("withdraw") {
            do {
                _ = try await console.run(WithdrawAnnouncement.self, .init(id: id))
            } catch let error where !(error is CancellationError) {
                return try await page(console, error: console.message(for: error))
            }
            return .redirect(console.pagePath("announcements", "board", query: [("done", "withdrawn")]))
        }
        let typed = Typed(console.form)
        do {
            let posted = try await console.run(PostAnnouncement.self, .init(
                title: typed.title, content: typed.content, priority: AnnouncementPriority(rawValue: typed.priority) ?? .normal,
                audience: typed.audience, publishAt: try typed.publishAt(console), pinned: typed.pinned))
            return .redirect(console.pagePath("announcements", "board", query: [("done", posted.isPublished ? "posted" : "scheduled")]))
        } catch let error where !(error is CancellationError) {
            return try await page(console, typed: typed, error: console.message(for: error))
        }
    }

    /// What the poster typed, kept beside a refusal.
    struct Typed {
        var title = ""
        var content = ""
        var priority = AnnouncementPriority.normal.rawValue
        var audience = "school"
        var when = ""
        var pinned = false

        init() {}

        init(_ form: ConsoleForm) {
            title = form.value("title") ?? ""
            content = form.value("content") ?? ""
            priority = form.value("priority") ?? priority
            audience = form.value("audience") ?? audience
            when = (form.value("publish_at") ?? "").trimmingCharacters(in: .whitespaces)
            pinned = form.value("pinned") == "on"
        }

        /// The browser's `datetime-local` value, in the school's time zone; empty is "now".
        func publishAt(_ console: ConsoleRequest) throws -> Date? {
            guard !when.isEmpty else { return nil }
            guard let date = AnnouncementsTime.local(when, formats: ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"], console.school.timeZone) else {
                throw InputError("announcements.error.when", [:])
            }
            return date
        }
    }

    static func noticeText(_ console: ConsoleRequest) -> String {
        switch console.query["done"] {
        case "posted": console.say(Words.posted)
        case "scheduled": console.say(Words.scheduled)
        case "withdrawn": console.say(Words.withdrawn)
        default: ""
        }
    }

    static func page(_ console: ConsoleRequest, typed: Typed = Typed(), notice: String = "", error: String = "") async throws -> ConsoleResponse {
        let posts = console.may(AnnouncementsPermissions.post)
        let shown = try await console.run(ListAnnouncements.self, .init(includeUnpublished: posts, limit: 100))
        let choices = posts ? try await console.run(AnnouncementAudienceChoices.self, .init()) : []
        let rows: [[String: Any]] = shown.items.map { item in
            var state = ""
            if item.withdrawnAt != nil { state = console.say(Words.isWithdrawn) } else if !item.isPublished { state = console.say(Words.isScheduled) }
            return ["id": item.id, "title": item.title, "content": item.content, "pinned": item.pinned, "urgent": item.priority == .urgent || item.priority == .high,
                    "meta": "\(item.authorName) · \(console.schoolTime(item.publishAt))", "state": state,
                    "reads": console.say(Words.reads, ["count": String(item.readCount)]),
                    "canWithdraw": posts && item.withdrawnAt == nil && (item.authorID == console.principal.userID || [.admin, .developer].contains(console.principal.role)), "withdraw": console.say(Words.withdraw)]
        }
        return .page(title: console.say(Words.title), body: Templates.board.render(console.common.merging([
            "notice": notice, "error": error, "announcements": rows, "none": rows.isEmpty ? console.say(Words.none) : "",
            "canPost": posts && !choices.isEmpty, "action": console.pagePath("announcements", "board"),
            "newHeading": console.say(Words.new), "titleLabel": console.say(Words.titleLabel), "title": typed.title,
            "contentLabel": console.say(Words.contentLabel), "content": typed.content,
            "audienceLabel": console.say(Words.audience), "audiences": choices.map {
                ["value": $0.value, "label": $0.label.text(in: console.language), "selected": $0.value == typed.audience]
            },
            "priorityLabel": console.say(Words.priority), "priorities": AnnouncementPriority.allCases.map {
                ["value": $0.rawValue, "label": console.say(Words.priority($0)), "selected": $0.rawValue == typed.priority]
            },
            "whenLabel": console.say(Words.when), "when": typed.when, "whenHint": console.say(Words.whenHint),
            "pinLabel": console.say(Words.pin), "pinned": typed.pinned, "post": console.say(Words.post),
        ]) { $1 }))
    }

    static let latest = ConsoleCard("latest", title: Words.title, permission: AnnouncementsPermissions.read) { console in
        let shown = try await console.run(ListAnnouncements.self, .init(limit: 3))
        guard !shown.items.isEmpty else { return ConsoleHTML.text(console.say(Words.none)) }
        return ConsoleHTML.text(shown.items.map(\.title).joined(separator: " · "))
    }

    enum Words {
        static let title = LocalizedText(ar: "الإعلانات", en: "Announcements")
        static let none = LocalizedText(ar: "لا إعلانات الآن.", en: "No announcements right now.")
        static let new = LocalizedText(ar: "إعلان جديد", en: "New announcement")
        static let titleLabel = LocalizedText(ar: "العنوان", en: "Title")
        static let contentLabel = LocalizedText(ar: "النص", en: "Text")
        static let audience = LocalizedText(ar: "إلى", en: "To")
        static let priority = LocalizedText(ar: "الأهمية", en: "Priority")
        static let when = LocalizedText(ar: "موعد النشر (اختياري)", en: "Publish at (optional)")
        static let whenHint = LocalizedText(ar: "اتركه فارغًا للنشر الآن. الوقت بتوقيت المدرسة.", en: "Leave empty to publish now. The time is the school's.")
        static let pin = LocalizedText(ar: "تثبيت في الأعلى", en: "Pin to the top")
        static let post = LocalizedText(ar: "نشر", en: "Post")
        static let posted = LocalizedText(ar: "نُشر الإعلان وأُبلغ به من يعنيهم.", en: "Posted, and everyone it is for has been told.")
        static let scheduled = LocalizedText(ar: "جُدول الإعلان، وسيُنشر في موعده.", en: "Scheduled: it will be published at its time.")
        static let withdrawn = LocalizedText(ar: "سُحب الإعلان.", en: "The announcement was withdrawn.")
        static let withdraw = LocalizedText(ar: "سحب", en: "Withdraw")
        static let isScheduled = LocalizedText(ar: "مجدول", en: "Scheduled")
        static let isWithdrawn = LocalizedText(ar: "مسحوب", en: "Withdrawn")
        static let reads = LocalizedText(ar: "قرأه {count}", en: "Read by {count}")

        static func priority(_ priority: AnnouncementPriority) -> LocalizedText {
            switch priority {
            case .low: LocalizedText(ar: "منخفضة", en: "Low")
            case .normal: LocalizedText(ar: "عادية", en: "Normal")
            case .high: LocalizedText(ar: "عالية", en: "High")
            case .urgent: LocalizedText(ar: "عاجلة", en: "Urgent")
            }
        }
    }

    enum Templates {
        static let board = ConsoleTemplate("""
            {{#notice}}<p class="notice" role="status" id="saved">{{notice}}</p>{{/notice}}
            {{#error}}<p class="problem" role="alert" id="announcements-problem">{{error}}</p>{{/error}}
            {{#none}}<p>{{none}}</p>{{/none}}
            <ul class="announcements">{{#announcements}}<li{{#urgent}} class="urgent"{{/urgent}}>
            <h2 id="a-{{id}}">{{#pinned}}📌 {{/pinned}}<bdi>{{title}}</bdi></h2>
            <p class="hint"><bdi>{{meta}}</bdi>{{#state}} · <strong>{{state}}</strong>{{/state}} · {{reads}}</p>
            <p><bdi>{{content}}</bdi></p>
            {{#canWithdraw}}<form method="post" action="{{action}}"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="withdraw" value="{{id}}">
            <button type="submit" aria-describedby="a-{{id}}">{{withdraw}}</button></form>{{/canWithdraw}}</li>{{/announcements}}</ul>
            {{#canPost}}<form method="post" action="{{action}}" class="panel" id="announcements-new"><input type="hidden" name="_csrf" value="{{csrf}}">
            <h2>{{newHeading}}</h2>
            <p><label for="announcement-title">{{titleLabel}}</label><input id="announcement-title" name="title" value="{{title}}" maxlength="200" required></p>
            <p><label for="announcement-content">{{contentLabel}}</label><textarea id="announcement-content" name="content" rows="4" maxlength="10000" required>{{content}}</textarea></p>
            <p><label for="announcement-audience">{{audienceLabel}}</label><select id="announcement-audience" name="audience">{{#audiences}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/audiences}}</select></p>
            <p><label for="announcement-priority">{{priorityLabel}}</label><select id="announcement-priority" name="priority">{{#priorities}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/priorities}}</select></p>
            <p><label for="announcement-when">{{whenLabel}}</label><input id="announcement-when" name="publish_at" type="datetime-local" value="{{when}}" dir="ltr" aria-describedby="announcement-when-hint">
            <span class="hint" id="announcement-when-hint">{{whenHint}}</span></p>
            <p><input id="announcement-pin" name="pinned" type="checkbox"{{#pinned}} checked{{/pinned}}><label for="announcement-pin">{{pinLabel}}</label></p>
            <button type="submit">{{post}}</button></form>{{/canPost}}
            """)
    }
}
