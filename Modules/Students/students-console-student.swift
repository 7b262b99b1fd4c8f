import Core
import Foundation

/// One student's page, reached from the list (`?id=`): details, class and guardians
/// (`students.show`, so someone the reader may not see, or another school's student, is "no such
/// student" exactly as an unknown id), and for administrators a form to move them to another class
/// (`students.update`, which checks the class and its seats), one to correct their details and a
/// way to archive them (`students-console-student-edit.swift`).
extension StudentsConsole {
    static let student = ConsolePage("student", title: StudentWords.title, permission: StudentsPermissions.read, scopes: [.school, .ownClasses],
                                     inMenu: false) { console in
        let source = console.isPost ? console.form : ConsoleForm(pairs: console.query.map { ($0.key, $0.value) })
        guard let id = source.value("id").flatMap({ $0.isEmpty ? nil : String($0.prefix(TextLimit.name)) }) else {
            return .redirect(console.pagePath("students", "students"))
        }
        // First who they are, as the reader may see them: an id out of reach ends here, as an unknown one.
        var detail = try await console.run(ShowStudent.self, .init(grNumber: id))
        var problem = ""
        var chosen = detail.student.classID
        var edit: (typed: [String: String], problems: [String: String])?
        var guardian: (typed: [String: String], problems: [String: String])?
        var askingToArchive = false
        if console.isPost {
            switch console.form.value("do") {
            case "edit":
                edit = try await Self.edit(detail.student, console)
                if edit == nil { return .redirect(console.pagePath("students", "student", query: [("id", detail.student.id), ("done", "edited")])) }
            case "guardian":
                guardian = try await linkGuardian(detail.student, console)
                if guardian == nil { return .redirect(console.pagePath("students", "student", query: [("id", detail.student.id), ("done", "linked")])) }
            case "archive-ask":
                askingToArchive = true
            case "archive":
                _ = try await console.run(ArchiveStudent.self, .init(grNumber: detail.student.id))
                return .redirect(console.pagePath("students", "students", query: [("done", "archived")]))
            default:
                let classID = String((console.form.value("class") ?? "").prefix(TextLimit.name))
                do {
                    guard !classID.isEmpty else { throw MoveProblem.noClass }
                    _ = try await console.run(UpdateStudent.self, StudentChange(grNumber: detail.student.id, classID: classID))
                    return .redirect(console.pagePath("students", "student", query: [("id", detail.student.id), ("done", "moved")]))
                } catch MoveProblem.noClass {
                    problem = console.say(Names.chooseClass)
                } catch let error where !(error is KernelError) && !(error is CancellationError) {
                    // The class's own refusals (full, not this year's) are shown beside the field.
                    problem = console.message(for: error)
                    chosen = classID
                    detail = try await console.run(ShowStudent.self, .init(grNumber: detail.student.id))
                }
            }
        }
        var shown = try await values(detail, problem: problem, chosen: chosen, console)
        var manage: [ConsoleHTML] = []
        if console.may(StudentsPermissions.manageRoster) {
            manage.append(GuardianTemplates.form.render(console.common.merging(
                guardianSection(detail.student, typed: guardian?.typed, problems: guardian?.problems ?? [:], console)) { $1 }))
        }
        if console.may(StudentsPermissions.manage) {
            manage.append(EditTemplates.sections.render(console.common.merging([
                "edit": editSection(detail.student, typed: edit?.typed, problems: edit?.problems ?? [:], console),
                "archive": archiveSection(detail.student, asking: askingToArchive, console),
            ]) { $1 }))
        }
        shown["manage"] = ConsoleHTML.joined(manage)
        return .page(title: detail.student.fullName, body: StudentTemplates.page.render(console.common.merging(shown) { $1 }))
    }

    private enum MoveProblem: Error { case noClass }

    private static func values(_ detail: StudentDetail, problem: String, chosen: String?, _ console: ConsoleRequest) async throws -> [String: Any] {
        let student = detail.student
        let mayMove = console.may(StudentsPermissions.manage)
        let classes = mayMove ? try await console.run(ListClasses.self, .init()) : []
        let notice: String = switch console.query["done"] {
        case "moved": console.say(StudentWords.moved, ["name": student.fullName, "class": classText(code: student.classCode, name: student.className, console)])
        case "enrolled": console.say(StudentWords.enrolled, ["name": student.fullName, "gr": ConsoleDates.isolated(student.grNumber)])
        case "edited": console.say(EditWords.saved, ["name": student.fullName])
        case "linked": console.say(GuardianWords.linked, ["name": student.fullName])
        default: ""
        }
        let facts: [(LocalizedText, String, Bool)] = [
            (StudentWords.gr, student.grNumber, true),
            (StudentWords.schoolClass, classText(code: student.classCode, name: student.className, console), false),
            (StudentWords.level, student.yearLevelName?.text(in: console.language) ?? console.say(Names.noClass), false),
            (StudentWords.birth, day(student.dateOfBirth, console), false),
            (StudentWords.gender, student.gender.map { console.say(Names.gender($0)) } ?? console.say(Names.notRecorded), false),
            (StudentWords.status, console.say(Names.status(student.status)), false),
            (StudentWords.enrolledOn, day(student.enrolledOn, console), false),
        ]
        let guardians: [[String: Any]] = detail.guardians.map { guardian in
            ["name": "\(guardian.givenName) \(guardian.surname)", "relation": console.say(Names.relation(guardian.relation)),
             "primary": guardian.isPrimary ? console.say(StudentWords.primary) : "", "email": guardian.email ?? "", "phone": guardian.phone ?? "",
             "account": guardian.userID != nil ? console.say(StudentWords.hasAccount) : "", "reach": guardian.email != nil || guardian.phone != nil]
        }
        return [
            "notice": notice, "back": console.pagePath("students", "students"), "backText": console.say(StudentWords.back),
            "detailsHeading": console.say(StudentWords.details),
            "facts": facts.map { ["term": console.say($0.0), "value": $0.1, "code": $0.2] as [String: Any] },
            "guardiansHeading": console.say(StudentWords.guardians), "guardians": guardians,
            "noGuardians": guardians.isEmpty ? console.say(StudentWords.noGuardians) : "",
            "emailLabel": console.say(StudentWords.email), "phoneLabel": console.say(StudentWords.phone),
            "manage": "",
            "move": mayMove ? [
                "action": console.pagePath("students", "student"), "id": student.id, "heading": console.say(StudentWords.moveHeading),
                "label": console.say(StudentWords.moveTo), "choices": classChoices(classes, selected: chosen, blank: Names.chooseClass, console),
                "problem": problem, "submit": console.say(StudentWords.move), "hint": console.say(StudentWords.moveHint),
            ] as [String: Any] : "",
        ]
    }

    enum StudentWords {
        static let title = LocalizedText(ar: "الطالب", en: "Student")
        static let back = LocalizedText(ar: "العودة إلى الطلاب", en: "Back to the students")
        static let details = LocalizedText(ar: "البيانات", en: "Details")
        static let gr = LocalizedText(ar: "رقم القيد", en: "GR number")
        static let schoolClass = LocalizedText(ar: "الفصل", en: "Class")
        static let level = LocalizedText(ar: "المرحلة", en: "Year level")
        static let birth = LocalizedText(ar: "تاريخ الميلاد", en: "Date of birth")
        static let gender = LocalizedText(ar: "الجنس", en: "Sex")
        static let status = LocalizedText(ar: "الحالة", en: "Status")
        static let enrolledOn = LocalizedText(ar: "تاريخ القيد", en: "Enrolled on")
        static let guardians = LocalizedText(ar: "أولياء الأمر", en: "Guardians")
        static let noGuardians = LocalizedText(ar: "لا وليّ أمر مرتبطًا بهذا الطالب.", en: "No guardian is linked to this student.")
        static let primary = LocalizedText(ar: "وليّ الأمر الأساسي", en: "Primary guardian")
        static let hasAccount = LocalizedText(ar: "له حساب في المنصة", en: "Has an account here")
        static let email = LocalizedText(ar: "البريد", en: "Email")
        static let phone = LocalizedText(ar: "الهاتف", en: "Phone")
        static let moveHeading = LocalizedText(ar: "النقل إلى فصل آخر", en: "Move to another class")
        static let moveTo = LocalizedText(ar: "الفصل الجديد", en: "New class")
        static let moveHint = LocalizedText(ar: "يُنقل الطالب من اليوم، ويبقى سجله في فصله السابق كما هو.",
                                            en: "The student moves from today; their records in the earlier class stay as they are.")
        static let move = LocalizedText(ar: "انقل الطالب", en: "Move the student")
        static let moved = LocalizedText(ar: "{name} الآن في الفصل {class}.", en: "{name} is now in class {class}.")
        static let enrolled = LocalizedText(ar: "قُيّد {name} برقم القيد {gr} مع أولياء أمره.", en: "{name} is enrolled with GR number {gr}, with their guardians.")
    }

    enum StudentTemplates {
        static let page = ConsoleTemplate("""
            {{#notice}}<p class="notice" role="status" id="student-notice">{{notice}}</p>{{/notice}}
            <p><a href="{{back}}" class="button">{{backText}}</a></p>
            <section class="panel" aria-labelledby="student-details"><h2 id="student-details">{{detailsHeading}}</h2>
            <dl class="facts">{{#facts}}<dt>{{term}}</dt><dd>{{#code}}<code dir="ltr">{{value}}</code>{{/code}}{{^code}}<bdi>{{value}}</bdi>{{/code}}</dd>{{/facts}}</dl></section>
            <section class="panel" aria-labelledby="student-guardians"><h2 id="student-guardians">{{guardiansHeading}}</h2>
            {{#noGuardians}}<p>{{noGuardians}}</p>{{/noGuardians}}
            <ul class="lessons" id="guardians">{{#guardians}}<li><strong><bdi>{{name}}</bdi></strong> · {{relation}}{{#primary}} · {{primary}}{{/primary}}{{#account}} · <span class="hint">{{account}}</span>{{/account}}
            {{#reach}}<span class="actions">{{#email}}<a class="button" href="mailto:{{email}}" aria-label="{{emailLabel}} {{email}}"><bdi dir="ltr">{{email}}</bdi></a>{{/email}}
            {{#phone}}<a class="button" href="tel:{{phone}}" aria-label="{{phoneLabel}} {{phone}}"><bdi dir="ltr">{{phone}}</bdi></a>{{/phone}}</span>{{/reach}}</li>{{/guardians}}</ul></section>
            {{#move}}<form method="post" action="{{action}}" class="panel" id="move-form" data-submit-once aria-labelledby="move-heading" novalidate>
            <h2 id="move-heading">{{heading}}</h2><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}">
            <div class="field{{#problem}} invalid{{/problem}}"><label for="move-class">{{label}}</label>
            <select id="move-class" name="class" required aria-describedby="move-class-hint{{#problem}} move-class-problem{{/problem}}"{{#problem}} aria-invalid="true"{{/problem}}>{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>
            <p class="hint" id="move-class-hint">{{hint}}</p>
            {{#problem}}<p class="problem" id="move-class-problem">{{problem}}</p>{{/problem}}</div>
            <p><button type="submit" class="primary">{{submit}}</button></p></form>{{/move}}
            {{{manage}}}
            """)
    }
}
