import Core
import Foundation

/// The students one may see (`students.list`: the whole school for its staff, their own classes'
/// for a teacher), with a search, a class chosen from the school's classes and pages; each name
/// opens the student's page. Administrators also find the way to enrol a student here.
extension StudentsConsole {
    static let listPageSize = 25

    static let list = ConsolePage("students", title: ListWords.title, permission: StudentsPermissions.read, scopes: [.school, .ownClasses]) { console in
        let search = String((console.query["search"] ?? "").trimmingCharacters(in: .whitespaces).prefix(TextLimit.name))
        let classID = console.query["class"].flatMap { $0.isEmpty ? nil : String($0.prefix(TextLimit.name)) }
        let page = min(max(1, Int(console.query["page"] ?? "") ?? 1), 100_000)
        let classes = try await filterClasses(console)
        let found = try await console.run(ListStudents.self, .init(search: search.isEmpty ? nil : search, classID: classID, sort: .name,
                                                                   page: page, pageSize: listPageSize))
        let rows: [[String: Any]] = found.students.map { student in
            ["href": console.pagePath("students", "student", query: [("id", student.id)]), "name": student.fullName, "gr": student.grNumber,
             "class": student.classCode ?? console.say(Names.noClass),
             "status": console.say(Names.status(student.status))]
        }
        func pageLink(_ number: Int) -> String {
            console.pagePath("students", "students", query: [("search", search), ("class", classID ?? ""), ("page", number == 1 ? "" : String(number))].filter { !$0.1.isEmpty })
        }
        let first = (page - 1) * listPageSize + 1
        let none = search.isEmpty && classID == nil ? ListWords.noStudents : ListWords.noMatch
        return .page(title: console.say(ListWords.title), body: ListTemplates.page.render(console.common.merging([
            "action": console.pagePath("students", "students"), "intro": console.say(ListWords.intro),
            "notice": console.query["done"] == "archived" ? console.say(EditWords.archived) : "",
            "enrol": console.may(StudentsPermissions.manage) ? console.pagePath("students", "enrol") : "", "enrolText": console.say(ListWords.enrol),
            "import": console.may(StudentsPermissions.manage) ? console.pagePath("students", "import") : "", "importText": console.say(ImportWords.link),
            "searchLabel": console.say(ListWords.search), "search": search, "classLabel": console.say(ListWords.classFilter),
            "classes": [["value": "", "label": console.say(ListWords.anyClass), "selected": classID == nil]]
                + classes.map { ["value": $0.id, "label": $0.label, "selected": $0.id == classID] },
            "show": console.say(ListWords.show),
            "students": rows, "hasStudents": !rows.isEmpty, "none": rows.isEmpty ? console.say(none) : "",
            "nameLabel": console.say(ListWords.name), "grLabel": console.say(ListWords.gr), "classHeading": console.say(ListWords.schoolClass),
            "statusLabel": console.say(ListWords.status),
            "count": rows.isEmpty ? "" : console.say(ListWords.count, ["first": String(first), "last": String(first + rows.count - 1), "total": String(found.total)]),
            "previous": page > 1 ? pageLink(page - 1) : "", "next": page < found.pageCount ? pageLink(page + 1) : "",
            "previousText": console.say(ListWords.previous), "nextText": console.say(ListWords.next), "pagerLabel": console.say(ListWords.pages),
        ]) { $1 }))
    }

    /// The classes the filter offers: the school's for its staff, a teacher's own for a teacher
    /// (whose list shows only their classes' students anyway).
    private static func filterClasses(_ console: ConsoleRequest) async throws -> [(id: String, label: String)] {
        if console.kernel.registry.policy.scope(of: console.principal.role, for: StudentsPermissions.read) == .ownClasses {
            var seen: Set<String> = []
            return try await console.run(ListTeacherClasses.self, .init()).filter { seen.insert($0.classID).inserted }.map {
                ($0.classID, classText(code: $0.classCode, name: $0.className, console))
            }
        }
        return try await console.run(ListClasses.self, .init()).map { ($0.id, classText(code: $0.code, name: $0.name, console)) }
    }

    enum ListWords {
        static let title = LocalizedText(ar: "الطلاب", en: "Students")
        static let intro = LocalizedText(ar: "الطلاب الذين يحق لك رؤيتهم. اختر اسمًا لعرض بيانات الطالب وأولياء أمره.",
                                         en: "The students you may see. Choose a name to see the student's details and guardians.")
        static let enrol = LocalizedText(ar: "قيد طالب جديد", en: "Enrol a student")
        static let search = LocalizedText(ar: "ابحث بالاسم أو رقم القيد", en: "Search by name or GR number")
        static let classFilter = LocalizedText(ar: "الفصل", en: "Class")
        static let anyClass = LocalizedText(ar: "كل الفصول", en: "Every class")
        static let show = LocalizedText(ar: "عرض", en: "Show")
        static let name = LocalizedText(ar: "الاسم", en: "Name")
        static let gr = LocalizedText(ar: "رقم القيد", en: "GR number")
        static let schoolClass = LocalizedText(ar: "الفصل", en: "Class")
        static let status = LocalizedText(ar: "الحالة", en: "Status")
        static let noStudents = LocalizedText(ar: "لا طلاب هنا بعد.", en: "No students here yet.")
        static let noMatch = LocalizedText(ar: "لا طالب يطابق البحث. امسح البحث أو اختر فصلًا آخر.",
                                           en: "No student matches. Clear the search or choose another class.")
        static let count = LocalizedText(ar: "الطلاب {first}–{last} من {total}", en: "Students {first}–{last} of {total}")
        static let previous = LocalizedText(ar: "السابق", en: "Previous")
        static let next = LocalizedText(ar: "التالي", en: "Next")
        static let pages = LocalizedText(ar: "صفحات الطلاب", en: "Student pages")
    }

    enum ListTemplates {
        static let page = ConsoleTemplate("""
            {{#notice}}<p class="notice" role="status" id="students-notice">{{notice}}</p>{{/notice}}
            <p class="lead">{{intro}}</p>
            {{#enrol}}<p class="actions"><a class="button primary" href="{{enrol}}" id="enrol-link">{{enrolText}}</a>{{#import}} <a class="button" href="{{import}}" id="import-link">{{importText}}</a>{{/import}}</p>{{/enrol}}
            <form method="get" action="{{action}}" class="panel actions" id="students-filter" role="search">
            <p><label for="students-search">{{searchLabel}}</label><input id="students-search" name="search" type="search" value="{{search}}" maxlength="100"></p>
            <p><label for="students-class">{{classLabel}}</label><select id="students-class" name="class">{{#classes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/classes}}</select></p>
            <button type="submit">{{show}}</button></form>
            {{#count}}<p class="hint" id="students-count">{{count}}</p>{{/count}}
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#hasStudents}}<div class="table-wrap" tabindex="0" role="region" aria-labelledby="students-count"><table id="students"><thead><tr><th scope="col">{{nameLabel}}</th><th scope="col">{{grLabel}}</th>
            <th scope="col">{{classHeading}}</th><th scope="col">{{statusLabel}}</th></tr></thead><tbody>
            {{#students}}<tr><td><a href="{{href}}" class="button row-link"><bdi>{{name}}</bdi></a></td><td><code dir="ltr">{{gr}}</code></td><td><bdi>{{class}}</bdi></td><td>{{status}}</td></tr>{{/students}}
            </tbody></table></div>{{/hasStudents}}
            <nav class="pager" aria-label="{{pagerLabel}}">{{#previous}}<a href="{{previous}}" rel="prev" class="button">{{previousText}}</a> {{/previous}}{{#next}}<a href="{{next}}" rel="next" class="button">{{nextText}}</a>{{/next}}</nav>
            """)
    }
}
