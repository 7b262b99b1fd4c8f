import Core
import Foundation

extension AuthModule: ConsoleModule {
    /// Users and roles, for whoever may read the school's accounts.
    public var consolePages: [ConsolePage] { [AuthConsoleUsers.page, AuthConsoleUser.page, AuthConsoleProviders.page] }
}

/// The school's accounts with their role and status, a search and pages; an administrator
/// changes a role or suspends and reinstates an account. Every change is Auth's own action
/// (`auth.change-role`, `auth.set-suspended`, `auth.invite-user`), so the kernel checks the
/// permission, revokes tokens and audits it exactly as for the CLI and the API.
enum AuthConsoleUsers {
    static let pageSize = 25

    static let page = ConsolePage("users", title: Words.title, permission: AuthPermissions.readUsers) { console in
        guard console.isPost else { return try await list(console) }
        let email = console.form.value("email") ?? ""
        if console.form.value("do") == "suspend" && console.form.value("confirm") != "yes" {
            // One tap never locks a person out: the list asks again above itself, naming whom.
            guard let user = try await AuthConsoleUser.find(email, console) else {
                return try await list(console, error: console.say(AuthConsoleUser.Words.missing))
            }
            return try await list(console, confirming: user)
        }
        do {
            switch console.form.value("do") {
            case "role":
                let role = Role(rawValue: console.form.value("role") ?? "")
                _ = try await console.run(ChangeRole.self, UserChange(email: email, role: role))
            case "invite":
                let name = (console.form.value("name") ?? "").trimmingCharacters(in: .whitespaces)
                _ = try await console.run(InviteUser.self, .init(email: email, displayName: name.isEmpty ? nil : name,
                                                                 role: Role(rawValue: console.form.value("role") ?? "")))
            case "suspend", "reinstate":
                _ = try await console.run(SetSuspended.self, UserChange(email: email, suspended: console.form.value("do") == "suspend"))
            default:
                return try await list(console, error: console.say(Words.unknownChange))
            }
        } catch let error where !(error is CancellationError) {
            // A refusal (no such account, a missing role) is shown above the list, with what to do.
            return try await list(console, error: console.message(for: error))
        }
        return .redirect(console.pagePath("auth", "users", query: [("done", console.form.value("do") ?? ""), ("email", email)]
            + kept(console.form.value("search"), console.form.value("filter"), console.form.value("offset"))))
    }

    private static func list(_ console: ConsoleRequest, error: String = "", confirming: User? = nil) async throws -> ConsoleResponse {
        let source = console.isPost ? console.form : ConsoleForm(pairs: console.query.map { ($0.key, $0.value) })
        let search = String((source.value("search") ?? "").trimmingCharacters(in: .whitespaces).prefix(100))
        let filter = Role(rawValue: source.value("filter") ?? "")
        let offset = max(0, Int(source.value("offset") ?? "") ?? 0)
        let users = try await console.run(ListUsers.self, .init(role: filter, search: search.isEmpty ? nil : search, offset: offset, limit: pageSize))
        let total = try await console.run(CountUsers.self, .init(roles: filter.map { [$0] }, search: search.isEmpty ? nil : search)).reduce(0) { $0 + $1.count }
        let mayChange = console.may(AuthPermissions.manageUsers)
        let rows: [[String: Any]] = users.enumerated().map { index, user in
            let suspended = user.status == .suspended
            return [
                "n": offset + index, "name": user.displayName, "email": user.email, "roleText": roleName(user.role, console),
                "status": user.status.rawValue, "statusText": console.say(suspended ? Words.suspended : Words.active),
                "me": user.id == console.principal.userID, "mayChange": mayChange && user.id != console.principal.userID,
                "detail": mayChange ? console.pagePath("auth", "user", query: [("email", user.email)]) : "",
                "detailText": console.say(Words.jobs, ["name": user.displayName]),
                "roles": Role.allCases.map { ["value": $0.rawValue, "label": roleName($0, console), "selected": $0 == user.role] },
                "roleLabel": console.say(Words.roleOf, ["name": user.displayName]),
                "do": suspended ? "reinstate" : "suspend",
                "toggle": console.say(suspended ? Words.reinstate : Words.suspend, ["name": user.displayName]),
                "audit": ConsoleForm.path("/admin/audit", query: [("who", user.id)]),
                "auditText": console.say(Words.audit, ["name": user.displayName]),
                "search": search, "filter": filter?.rawValue ?? "", "offset": String(offset),
            ]
        }
        var notice = ""
        if let done = console.query["done"], let email = console.query["email"] {
            let words = [("role", Words.roleChanged), ("suspend", Words.suspendedNow), ("invite", Words.invited)].first { $0.0 == done }?.1 ?? Words.reinstatedNow
            notice = console.say(words, ["email": email])
        }
        let previous = offset > 0 ? console.pagePath("auth", "users", query: kept(search, filter?.rawValue, String(max(0, offset - pageSize)))) : ""
        let next = offset + pageSize < total ? console.pagePath("auth", "users", query: kept(search, filter?.rawValue, String(offset + pageSize))) : ""
        var confirm: [String: Any] = [:]
        if let confirming { confirm = ["confirm": confirmValues(confirming, search, filter, offset, console)] }
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging([
            "action": console.pagePath("auth", "users"), "intro": console.say(Words.intro), "notice": notice, "error": error,
            "searchLabel": console.say(Words.search), "search": search, "filterLabel": console.say(Words.role), "show": console.say(Words.show),
            "filters": [["value": "", "label": console.say(Words.anyRole), "selected": filter == nil]]
                + Role.allCases.map { ["value": $0.rawValue, "label": roleName($0, console), "selected": $0 == filter] },
            "users": rows, "hasUsers": !rows.isEmpty, "none": rows.isEmpty ? console.say(Words.none) : "",
            "nameLabel": console.say(Words.name), "emailLabel": console.say(Words.email), "roleHeading": console.say(Words.role),
            "statusLabel": console.say(Words.status), "changeLabel": console.say(Words.change), "saveRole": console.say(Words.saveRole),
            "you": console.say(Words.you), "mayInvite": mayChange, "inviteHeading": console.say(Words.inviteHeading),
            "inviteText": console.say(Words.invite), "inviteHint": console.say(Words.inviteHint),
            "inviteRoles": [["value": "", "label": console.say(Words.keepRole), "selected": false]]
                + Role.allCases.map { ["value": $0.rawValue, "label": roleName($0, console), "selected": $0 == .teacher] },
            "count": total == 0 ? "" : console.say(Words.count, ["first": String(offset + 1), "last": String(offset + rows.count), "total": String(total)]),
            "previous": previous, "next": next, "previousText": console.say(Words.previous), "nextText": console.say(Words.next),
            "pagerLabel": console.say(Words.pages),
        ]) { $1 }.merging(confirm) { $1 }))
    }

    /// The second step of a quick suspension: whom, what it does, yes or back to the list as it was.
    private static func confirmValues(_ user: User, _ search: String, _ filter: Role?, _ offset: Int, _ console: ConsoleRequest) -> [String: Any] {
        let arguments = ["name": user.displayName, "email": user.email]
        return ["email": user.email, "search": search, "filter": filter?.rawValue ?? "", "offset": String(offset), "text": console.say(AuthConsoleUser.Words.confirm, arguments),
                "yes": console.say(AuthConsoleUser.Words.confirmYes, arguments), "cancelText": console.say(AuthConsoleUser.Words.cancel),
                "cancel": console.pagePath("auth", "users", query: kept(search, filter?.rawValue, String(offset)))]
    }

    /// The list's search, role and page, carried through a change so the admin stays where they were.
    private static func kept(_ search: String?, _ filter: String?, _ offset: String?) -> [(String, String)] {
        [("search", search ?? ""), ("filter", filter ?? ""), ("offset", offset ?? "")].filter { !$0.1.isEmpty && $0.1 != "0" }
    }

    private static func roleName(_ role: Role, _ console: ConsoleRequest) -> String {
        console.localizer("console.role.\(role.rawValue)")
    }

    enum Words {
        static let title = LocalizedText(ar: "المستخدمون والأدوار", en: "Users and roles")
        static let intro = LocalizedText(ar: "حسابات المدرسة بأدوارها وحالاتها. تغيير الدور أو إيقاف الحساب ينهي جلساته ورموزه فورًا ويُسجَّل في سجل التدقيق.",
                                         en: "The school's accounts with their role and status. Changing a role or suspending an account ends its sessions and tokens at once, and is recorded in the audit log.")
        static let search = LocalizedText(ar: "بحث بالاسم أو البريد", en: "Search by name or email")
        static let role = LocalizedText(ar: "الدور", en: "Role")
        static let anyRole = LocalizedText(ar: "كل الأدوار", en: "Every role")
        static let show = LocalizedText(ar: "عرض", en: "Show")
        static let name = LocalizedText(ar: "الاسم", en: "Name")
        static let email = LocalizedText(ar: "البريد الإلكتروني", en: "Email")
        static let status = LocalizedText(ar: "الحالة", en: "Status")
        static let change = LocalizedText(ar: "تغيير", en: "Change")
        static let active = LocalizedText(ar: "نشط", en: "Active")
        static let suspended = LocalizedText(ar: "موقوف", en: "Suspended")
        static let roleOf = LocalizedText(ar: "دور {name}", en: "Role of {name}")
        static let saveRole = LocalizedText(ar: "حفظ الدور", en: "Save role")
        static let suspend = LocalizedText(ar: "إيقاف {name}", en: "Suspend {name}")
        static let reinstate = LocalizedText(ar: "إعادة تفعيل {name}", en: "Reinstate {name}")
        static let audit = LocalizedText(ar: "سجل {name}", en: "Audit of {name}")
        static let jobs = LocalizedText(ar: "كلمة المرور والقفل لـ {name}", en: "Password and lock of {name}")
        static let you = LocalizedText(ar: "أنت", en: "You")
        static let none = LocalizedText(ar: "لا حسابات تطابق البحث. امسح البحث أو اختر دورًا آخر.",
                                        en: "No account matches. Clear the search or choose another role.")
        static let count = LocalizedText(ar: "الحسابات {first}–{last} من {total}", en: "Accounts {first}–{last} of {total}")
        static let previous = LocalizedText(ar: "السابق", en: "Previous")
        static let next = LocalizedText(ar: "التالي", en: "Next")
        static let pages = LocalizedText(ar: "صفحات الحسابات", en: "Account pages")
        static let roleChanged = LocalizedText(ar: "تغيّر دور {email}.", en: "The role of {email} is changed.")
        static let suspendedNow = LocalizedText(ar: "أُوقف {email}: انتهت جلساته.", en: "{email} is suspended: their sessions are ended.")
        static let reinstatedNow = LocalizedText(ar: "أُعيد تفعيل {email}.", en: "{email} is reinstated.")
        static let inviteHeading = LocalizedText(ar: "دعوة شخص", en: "Invite someone")
        static let invite = LocalizedText(ar: "أرسل الدعوة", en: "Send the invitation")
        static let inviteHint = LocalizedText(ar: "يصله بريد برابط ليختار كلمة مروره، صالح مرة واحدة لمدة 14 يومًا. لحساب موجود اترك الاسم فارغًا.",
                                              en: "They get an email with a link to choose their password, valid once for 14 days. For an existing account, leave the name empty.")
        static let keepRole = LocalizedText(ar: "دور الحساب الموجود", en: "The existing account's role")
        static let invited = LocalizedText(ar: "أُرسلت الدعوة إلى {email}.", en: "The invitation is on its way to {email}.")
        static let unknownChange = LocalizedText(ar: "طلب غير معروف: اختر الدور أو الإيقاف من القائمة.",
                                                 en: "Unknown change: use the role or suspend buttons in the list.")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
            {{#error}}<p class="problem" role="alert">{{error}}</p>{{/error}}
            <form method="get" action="{{action}}" class="panel actions" id="users-filter">
            <p><label for="users-search">{{searchLabel}}</label><input id="users-search" name="search" value="{{search}}"></p>
            <p><label for="users-role">{{filterLabel}}</label><select id="users-role" name="filter">{{#filters}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/filters}}</select></p>
            <button type="submit">{{show}}</button></form>
            {{#mayInvite}}<form method="post" action="{{action}}" class="panel actions" id="invite-form" aria-labelledby="invite-heading">
            <h2 id="invite-heading">{{inviteHeading}}</h2><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="invite">
            <p><label for="invite-email">{{emailLabel}}</label><input id="invite-email" name="email" type="email" required dir="ltr"></p>
            <p><label for="invite-name">{{nameLabel}}</label><input id="invite-name" name="name"></p>
            <p><label for="invite-role">{{roleHeading}}</label><select id="invite-role" name="role">{{#inviteRoles}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/inviteRoles}}</select></p>
            <p class="hint">{{inviteHint}}</p><button type="submit">{{inviteText}}</button></form>{{/mayInvite}}
            {{#confirm}}<form method="post" action="{{action}}" class="panel" id="users-confirm-suspend" data-submit-once role="alertdialog" aria-labelledby="users-confirm-text">
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="do" value="suspend"><input type="hidden" name="confirm" value="yes">
            <input type="hidden" name="email" value="{{email}}"><input type="hidden" name="search" value="{{search}}"><input type="hidden" name="filter" value="{{filter}}">
            <input type="hidden" name="offset" value="{{offset}}"><p id="users-confirm-text"><strong>{{text}}</strong></p>
            <p class="actions"><button type="submit" class="danger">{{yes}}</button> <a class="button" href="{{cancel}}">{{cancelText}}</a></p></form>{{/confirm}}
            {{#count}}<p class="hint" id="users-count">{{count}}</p>{{/count}}
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#hasUsers}}<div class="table-wrap" tabindex="0"><table class="users" id="users"><thead><tr><th scope="col">{{nameLabel}}</th><th scope="col">{{emailLabel}}</th>
            <th scope="col">{{roleHeading}}</th><th scope="col">{{statusLabel}}</th><th scope="col">{{changeLabel}}</th></tr></thead><tbody>
            {{#users}}<tr id="user-{{n}}" data-email="{{email}}" data-status="{{status}}"><td><bdi>{{name}}</bdi>{{#me}} <span class="hint">({{you}})</span>{{/me}}</td>
            <td><bdi dir="ltr">{{email}}</bdi></td><td class="role-cell">{{roleText}}</td><td class="status-{{status}}">{{statusText}}</td>
            <td>{{#mayChange}}<form method="post" action="{{action}}" class="inline role-form"><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="do" value="role"><input type="hidden" name="email" value="{{email}}">
            <input type="hidden" name="search" value="{{search}}"><input type="hidden" name="filter" value="{{filter}}"><input type="hidden" name="offset" value="{{offset}}">
            <select name="role" aria-label="{{roleLabel}}">{{#roles}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/roles}}</select>
            <button type="submit">{{saveRole}}</button></form>
            <form method="post" action="{{action}}" class="inline status-form"><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="do" value="{{do}}"><input type="hidden" name="email" value="{{email}}">
            <input type="hidden" name="search" value="{{search}}"><input type="hidden" name="filter" value="{{filter}}"><input type="hidden" name="offset" value="{{offset}}">
            <button type="submit" class="{{do}}">{{toggle}}</button></form>{{/mayChange}}
            {{#detail}}<a href="{{detail}}" class="user-jobs">{{detailText}}</a> {{/detail}}<a href="{{audit}}">{{auditText}}</a></td></tr>{{/users}}
            </tbody></table></div>{{/hasUsers}}
            <nav class="pager" aria-label="{{pagerLabel}}">{{#previous}}<a href="{{previous}}" rel="prev">{{previousText}}</a> {{/previous}}{{#next}}<a href="{{next}}" rel="next">{{nextText}}</a>{{/next}}</nav>
            """)
    }
}
