import Core
import Foundation
import Students

/// "New message": the person picks the kind of conversation their role may start, who it is for
/// (people from `messages.recipients`, their classes, or an audience), writes the first message
/// and sends it: `messages.start`, then `messages.send`, so the module's rules decide as they do
/// for the API. A problem is shown beside its field, with what was written kept.
enum MessagesConsoleCompose {
    static let page = ConsolePage("new", title: Words.title, permission: MessagesPermissions.start, inMenu: false) { console in
        let kinds = ConversationKind.allCases.filter { MessagesPermissions.kinds(for: console.principal.role).contains($0) }
        let source = console.isPost ? console.form : ConsoleForm(pairs: console.query.map { ($0.key, $0.value) })
        let kind = ConversationKind(rawValue: source.value("kind") ?? "").flatMap { kinds.contains($0) ? $0 : nil } ?? kinds.first ?? .direct
        var form = Filled(source, kind: kind)
        if console.isPost {
            do {
                return try await send(form, console)
            } catch let error where !(error is CancellationError) {
                form.problems[field(of: error)] = console.message(for: error)
            }
        }
        return try await render(form, kinds: kinds, console)
    }

    /// The form as sent (or as a link asked for it).
    struct Filled {
        let kind: ConversationKind
        let to: String
        let members: Set<String>
        let title: String
        let classCode: String
        let audience: String
        let body: String
        let client: String
        var problems: [String: String] = [:]

        init(_ form: ConsoleForm, kind: ConversationKind) {
            self.kind = kind
            to = form.value("to") ?? ""
            members = Set(form.values("member"))
            title = form.value("title") ?? ""
            classCode = form.value("class") ?? ""
            audience = form.value("audience") ?? "all"
            body = form.value("body") ?? ""
            client = form.value("client").flatMap { $0.isEmpty ? nil : String($0.prefix(64)) } ?? UUID().uuidString.lowercased()
        }
    }

    /// Starts the conversation and sends its first message; then the thread, showing it.
    static func send(_ form: Filled, _ console: ConsoleRequest) async throws -> ConsoleResponse {
        // The text first, so a refused text starts no empty conversation.
        try MessageText.check(body: form.body)
        let input: StartConversation.Input = switch form.kind {
        case .direct: .init(kind: .direct, userIDs: form.to.isEmpty ? [] : [form.to])
        case .group: .init(kind: .group, title: form.title, userIDs: form.members.sorted())
        case .class: .init(kind: .class, classCode: form.classCode)
        case .announcement: .init(kind: .announcement, title: form.title, audience: form.audience)
        }
        let started = try await console.run(StartConversation.self, input)
        let sent = try await console.run(SendMessage.self, .init(conversation: started.id, body: form.body, clientID: form.client))
        return .redirect(console.pagePath("messages", "conversations", query: [("c", started.id), ("sent", "1")]) + "#message-\(sent.message.id)")
    }

    /// Which field a refusal belongs beside; "form" for one about the whole form.
    static func field(of error: any Error) -> String {
        switch error {
        case MessagesError.bodyLength: "body"
        case MessagesError.directNeedsOne, MessagesError.unknownUser, MessagesError.tooManyParticipants: "to"
        case MessagesError.titleRequired: "title"
        case let error as InputError where ["body", "title", "audience"].contains(error.messageArguments["field"] ?? ""):
            error.messageArguments["field"] ?? "form"
        case let error as InputError where error.messageKey == "messages.error.audience": "audience"
        case is StudentsError: "class"
        default: "form"
        }
    }

    static func render(_ form: Filled, kinds: [ConversationKind], _ console: ConsoleRequest) async throws -> ConsoleResponse {
        let people = [.direct, .group].contains(form.kind) ? try await console.run(ListRecipients.self, .init()) : []
        let classes = [.class, .announcement].contains(form.kind) ? try await classCodes(console) : []
        let problem = { (name: String) in form.problems[name] ?? "" }
        let values: [String: Any] = [
            "action": console.pagePath("messages", "new"), "intro": console.say(Words.intro), "kindLabel": console.say(Words.kind),
            "kinds": kinds.map { kind in
                ["href": console.pagePath("messages", "new", query: [("kind", kind.rawValue)]), "label": console.say(Words.kindName(kind)),
                 "current": kind == form.kind] as [String: Any]
            },
            "manyKinds": kinds.count > 1, "kind": form.kind.rawValue, "client": form.client,
            "formProblem": problem("form"),
            "direct": form.kind == .direct, "group": form.kind == .group, "class": form.kind == .class, "announcement": form.kind == .announcement,
            "toLabel": console.say(Words.to), "choose": console.say(Words.choose), "toProblem": problem("to"),
            "people": people.map { ["id": $0.id, "label": "\($0.name) (\(console.localizer("console.role.\($0.role.rawValue)")))",
                                    "selected": $0.id == form.to, "checked": form.members.contains($0.id)] as [String: Any] },
            "nobody": people.isEmpty && [.direct, .group].contains(form.kind) ? console.say(Words.nobody) : "",
            "membersLabel": console.say(Words.members),
            "titleLabel": console.say(Words.titleField), "title": form.title, "titleProblem": problem("title"),
            "classLabel": console.say(Words.classField), "classProblem": problem("class"),
            "classes": classes.map { ["code": $0, "selected": $0 == form.classCode] as [String: Any] },
            "audienceLabel": console.say(Words.audience), "audienceProblem": problem("audience"),
            "audiences": audiences(classes, console).map { value, label in
                ["value": value, "label": label, "selected": value == form.audience] as [String: Any]
            },
            "bodyLabel": console.say(Words.body), "body": form.body, "bodyProblem": problem("body"), "send": console.say(Words.send),
        ]
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging(values) { $1 }))
    }

    /// The class codes the person may address: their own classes for a teacher, every class for the school's administrators.
    static func classCodes(_ console: ConsoleRequest) async throws -> [String] {
        if console.principal.role == .teacher {
            var seen = Set<String>()
            return try await console.run(ListTeacherClasses.self, .init()).map(\.classCode).filter { seen.insert($0).inserted }
        }
        return try await console.run(ListClasses.self, .init()).map(\.code)
    }

    /// Who an announcement may reach: everyone, one role, or one class.
    static func audiences(_ classes: [String], _ console: ConsoleRequest) -> [(String, String)] {
        [("all", console.say(Words.everyone))]
            + [Role.teacher, .staff, .guardian, .student, .accountant, .admin].map { ("role:\($0.rawValue)", console.say(Words.everyoneIn, ["group": console.localizer("console.role.\($0.rawValue)")])) }
            + classes.map { ("class:\($0)", console.say(Words.classAudience, ["class": $0])) }
    }

    enum Words {
        static let title = LocalizedText(ar: "رسالة جديدة", en: "New message")
        static let intro = LocalizedText(ar: "اختر لمن تكتب، ثم اكتب رسالتك وأرسلها. تظهر في المحادثة بعد الإرسال.",
                                         en: "Choose who you are writing to, then write your message and send it. It shows in the conversation once sent.")
        static let kind = LocalizedText(ar: "نوع المحادثة", en: "Kind of conversation")
        static let direct = LocalizedText(ar: "إلى شخص", en: "To one person")
        static let group = LocalizedText(ar: "مجموعة", en: "Group")
        static let classKind = LocalizedText(ar: "صف", en: "Class")
        static let announcementKind = LocalizedText(ar: "إعلان", en: "Announcement")
        static let to = LocalizedText(ar: "إلى", en: "To")
        static let choose = LocalizedText(ar: "اختر شخصًا", en: "Choose someone")
        static let nobody = LocalizedText(ar: "لا أحد تستطيع مراسلته بعد: يظهر هنا معلمو أبنائك أو طلاب صفوفك وأولياء أمورهم وإدارة المدرسة.",
                                          en: "Nobody to write to yet: your children's teachers, or your classes' students and guardians, and the school's administrators show here.")
        static let members = LocalizedText(ar: "المشاركون", en: "Members")
        static let titleField = LocalizedText(ar: "العنوان", en: "Title")
        static let classField = LocalizedText(ar: "الصف", en: "Class")
        static let audience = LocalizedText(ar: "إلى من يصل الإعلان", en: "Who it reaches")
        static let everyone = LocalizedText(ar: "الجميع في المدرسة", en: "Everyone in the school")
        static let everyoneIn = LocalizedText(ar: "كل من دوره: {group}", en: "Everyone whose role is {group}")
        static let classAudience = LocalizedText(ar: "الصف {class}: طلابه وأولياء أمورهم ومعلموه", en: "Class {class}: its students, their guardians and its teachers")
        static let body = LocalizedText(ar: "الرسالة", en: "Message")
        static let send = LocalizedText(ar: "إرسال", en: "Send")

        static func kindName(_ kind: ConversationKind) -> LocalizedText {
            switch kind {
            case .direct: direct
            case .group: group
            case .class: classKind
            case .announcement: announcementKind
            }
        }
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#manyKinds}}<nav aria-label="{{kindLabel}}"><ul class="actions" id="message-kinds">{{#kinds}}<li><a class="button" href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}</a></li>{{/kinds}}</ul></nav>{{/manyKinds}}
            <form method="post" action="{{action}}" class="panel" id="compose-form" data-submit-once>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="kind" value="{{kind}}"><input type="hidden" name="client" value="{{client}}">
            {{#formProblem}}<p class="problem" role="alert" id="compose-problem">{{formProblem}}</p>{{/formProblem}}
            {{#nobody}}<p id="compose-nobody">{{nobody}}</p>{{/nobody}}
            {{#direct}}<div class="field{{#toProblem}} invalid{{/toProblem}}"><label for="compose-to">{{toLabel}}</label>
            <select id="compose-to" name="to" required{{#toProblem}} aria-invalid="true" aria-describedby="to-problem"{{/toProblem}}><option value="">{{choose}}</option>{{#people}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/people}}</select>
            {{#toProblem}}<p class="problem" id="to-problem">{{toProblem}}</p>{{/toProblem}}</div>{{/direct}}
            {{#group}}<div class="field{{#titleProblem}} invalid{{/titleProblem}}"><label for="compose-title">{{titleLabel}}</label>
            <input id="compose-title" name="title" value="{{title}}" maxlength="200" required{{#titleProblem}} aria-invalid="true" aria-describedby="title-problem"{{/titleProblem}}>
            {{#titleProblem}}<p class="problem" id="title-problem">{{titleProblem}}</p>{{/titleProblem}}</div>
            <fieldset class="field choices{{#toProblem}} invalid{{/toProblem}}" id="compose-members"{{#toProblem}} aria-describedby="to-problem"{{/toProblem}}><legend>{{membersLabel}}</legend>
            {{#people}}<label><input type="checkbox" name="member" value="{{id}}"{{#checked}} checked{{/checked}}> <bdi>{{label}}</bdi></label>{{/people}}
            {{#toProblem}}<p class="problem" id="to-problem">{{toProblem}}</p>{{/toProblem}}</fieldset>{{/group}}
            {{#class}}<div class="field{{#classProblem}} invalid{{/classProblem}}"><label for="compose-class">{{classLabel}}</label>
            <select id="compose-class" name="class" required{{#classProblem}} aria-invalid="true" aria-describedby="class-problem"{{/classProblem}}>{{#classes}}<option value="{{code}}"{{#selected}} selected{{/selected}}>{{code}}</option>{{/classes}}</select>
            {{#classProblem}}<p class="problem" id="class-problem">{{classProblem}}</p>{{/classProblem}}</div>{{/class}}
            {{#announcement}}<div class="field{{#titleProblem}} invalid{{/titleProblem}}"><label for="compose-title">{{titleLabel}}</label>
            <input id="compose-title" name="title" value="{{title}}" maxlength="200" required{{#titleProblem}} aria-invalid="true" aria-describedby="title-problem"{{/titleProblem}}>
            {{#titleProblem}}<p class="problem" id="title-problem">{{titleProblem}}</p>{{/titleProblem}}</div>
            <div class="field{{#audienceProblem}} invalid{{/audienceProblem}}"><label for="compose-audience">{{audienceLabel}}</label>
            <select id="compose-audience" name="audience"{{#audienceProblem}} aria-invalid="true" aria-describedby="audience-problem"{{/audienceProblem}}>{{#audiences}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/audiences}}</select>
            {{#audienceProblem}}<p class="problem" id="audience-problem">{{audienceProblem}}</p>{{/audienceProblem}}</div>{{/announcement}}
            <div class="field{{#bodyProblem}} invalid{{/bodyProblem}}"><label for="compose-body">{{bodyLabel}}</label>
            <textarea id="compose-body" name="body" rows="5" maxlength="4000" required dir="auto"{{#bodyProblem}} aria-invalid="true" aria-describedby="body-problem"{{/bodyProblem}}>{{body}}</textarea>
            {{#bodyProblem}}<p class="problem" id="body-problem">{{bodyProblem}}</p>{{/bodyProblem}}</div>
            <p><button type="submit" class="primary">{{send}}</button></p></form>
            """)
    }
}
