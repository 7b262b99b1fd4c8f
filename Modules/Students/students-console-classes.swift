import Core
import Foundation

extension StudentsModule: ConsoleModule {
    /// The students list with each student's page and the enrolment form, a teacher's class lists, and everyone's subjects.
    public var consolePages: [ConsolePage] {
        [StudentsConsole.list, StudentsConsole.classes, StudentsConsole.subjects, StudentsConsole.student, StudentsConsole.enrol,
         StudentsConsole.importPage, StudentsConsole.setup]
    }
}

/// Class lists in the console: the teacher's classes (`students.teacher-classes`) and one class's
/// students (`students.class-students`). Whose class it is, and who may ask, are the actions' rules.
enum StudentsConsole {
    static let classes = ConsolePage("classes", title: Words.title, permission: StudentsPermissions.read, scopes: [.ownClasses]) { console in
        let taught = try await console.run(ListTeacherClasses.self, .init())
        var seen: Set<String> = []
        let taughtAll = taught
        let rows: [[String: Any]] = taught.filter { seen.insert($0.classID).inserted }.map { taught in
            // One row per subject taught in the class: its subjects are gathered on one line.
            let subjects = taughtAll.filter { $0.classID == taught.classID }.compactMap(\.subjectName)
            return ["href": console.pagePath("students", "classes", query: [("class", taught.classID)]),
                    "text": "\(taught.classCode) · \(taught.className.text(in: console.language))",
                    "subjects": subjects.map { $0.text(in: console.language) }.joined(separator: console.language.isRightToLeft ? "، " : ", "),
                    "count": console.say(Words.students, ["count": String(taught.studentCount)])]
        }
        var values: [String: Any] = [
            "classes": rows, "none": rows.isEmpty ? console.say(Words.noClasses) : "", "intro": console.say(Words.intro),
        ]
        if let classID = console.query["class"].flatMap({ $0.isEmpty ? nil : $0 }) {
            let students = try await console.run(ListClassStudents.self, .init(classID: classID))
            let chosen = taught.first { $0.classID == classID }
            values["list"] = [
                "heading": chosen.map { "\($0.classCode) · \($0.className.text(in: console.language))" } ?? console.say(Words.classList),
                "students": students.enumerated().map { index, student in
                    ["position": index + 1, "name": student.fullName, "gr": student.grNumber,
                     "href": console.pagePath("students", "student", query: [("id", student.id)])] as [String: Any]
                },
                "empty": students.isEmpty ? console.say(Words.noStudents) : "",
                "numberLabel": console.say(Words.number), "nameLabel": console.say(Words.name), "grLabel": console.say(Words.gr),
            ] as [String: Any]
        }
        return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging(values) { $1 }))
    }

    enum Words {
        static let title = LocalizedText(ar: "قوائم الفصول", en: "Class lists")
        static let intro = LocalizedText(ar: "فصولك هذا العام. اختر فصلًا لعرض طلابه.", en: "Your classes this year. Choose one to see its students.")
        static let noClasses = LocalizedText(ar: "لا فصول تدرّسها هذا العام.", en: "You teach no class this year.")
        static let students = LocalizedText(ar: "{count} طالبًا", en: "{count} students")
        static let classList = LocalizedText(ar: "طلاب الفصل", en: "Students of the class")
        static let noStudents = LocalizedText(ar: "لا طلاب في هذا الفصل.", en: "No students in this class.")
        static let number = LocalizedText(ar: "م", en: "No.")
        static let name = LocalizedText(ar: "الاسم", en: "Name")
        static let gr = LocalizedText(ar: "رقم القيد", en: "GR number")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#none}}<p>{{none}}</p>{{/none}}
            <ul class="lessons">{{#classes}}<li><a href="{{href}}">{{text}}</a> {{#subjects}}<span>({{subjects}})</span> {{/subjects}}<span class="hint">{{count}}</span></li>{{/classes}}</ul>
            {{#list}}<section class="panel" aria-labelledby="class-title"><h2 id="class-title"><bdi>{{heading}}</bdi></h2>
            {{#empty}}<p>{{empty}}</p>{{/empty}}
            {{^empty}}<table><thead><tr><th scope="col">{{numberLabel}}</th><th scope="col">{{nameLabel}}</th><th scope="col">{{grLabel}}</th></tr></thead>
            <tbody>{{#students}}<tr><td dir="ltr">{{position}}</td><td><a href="{{href}}" class="button"><bdi>{{name}}</bdi></a></td><td><code dir="ltr">{{gr}}</code></td></tr>{{/students}}</tbody></table>{{/empty}}
            </section>{{/list}}
            """)
    }
}
