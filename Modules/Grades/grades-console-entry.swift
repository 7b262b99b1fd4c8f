import Core
import Foundation
import Students

/// Grade entry in the console: pick one of your assessments (`grades.list-assessments`), type each
/// student's mark, save once (`grades.enter-results`). What a mark may be, whose class it is and
/// the all-or-nothing batch are the action's rules; the page shows its problems beside the fields.
enum GradesEntryConsole {
    static let entry = ConsolePage("enter", title: Words.title, permission: GradesPermissions.enter) { console in
        let assessments = try await console.run(ListAssessments.self, .init())
        let code = (console.isPost ? console.form.value("assessment") : console.query["assessment"]).flatMap { $0.isEmpty ? nil : $0 }
        var values = pickValues(assessments, chosen: code, console)
        guard let code else { return .page(title: console.say(Words.title), body: Templates.page.render(console.common.merging(values) { $1 })) }
        // Only the assessments the action lists for this person can be opened here.
        guard let assessment = assessments.first(where: { $0.code == code }) else { throw GradesError.unknownAssessment(code) }
        let students = try await console.run(ListStudents.self, .init(classCode: assessment.classCode, pageSize: StudentPage.maximumPageSize)).students
        // Marks already entered fill the sheet, so a correction starts from what is there.
        var entered = console.isPost ? [:] : try await enteredMarks(assessment, students: students, console)
        var problems: [String: String] = [:]
        if console.isPost {
            let marks = console.form.fields(prefixed: "mark.")
            let lines = marks.compactMap { student, mark -> ResultLine? in
                let trimmed = mark.trimmingCharacters(in: .whitespaces)
                return trimmed.isEmpty ? nil : ResultLine(student: student, result: trimmed)
            }
            do {
                let saved = try await console.run(EnterResults.self, .init(assessment: assessment.code, lines: lines))
                return .redirect(console.pagePath("grades", "enter", query: [("assessment", saved.assessment), ("saved", String(saved.entered))]))
            } catch GradesError.invalidResults(let found) {
                values["error"] = console.message(for: GradesError.invalidResults(found))
                for problem in found { problems[problem.student] = problem.reason }
            } catch {
                values["error"] = console.message(for: error)
            }
            entered = Dictionary(marks, uniquingKeysWith: { first, _ in first })
        }
        values["sheet"] = sheetValues(assessment, students: students, entered: entered, problems: problems, console)
        return .page(title: console.say(Words.sheetTitle, ["title": assessment.title]), body: Templates.page.render(console.common.merging(values) { $1 }))
    }

    /// Each entered result as the sheet's field shows it: the mark, `absent` or `exempt`.
    private static func enteredMarks(_ assessment: Assessment, students: [Student], _ console: ConsoleRequest) async throws -> [String: String] {
        let grNumbers = Dictionary(students.map { ($0.id, $0.grNumber) }, uniquingKeysWith: { first, _ in first })
        let results = try await console.run(AssessmentResults.self, .init(assessment: assessment.code))
        return Dictionary(results.compactMap { result -> (String, String)? in
            guard let grNumber = grNumbers[result.studentID] else { return nil }
            let text = switch result.state {
            case .scored: result.score.map(GradeScale.number) ?? ""
            case .absent: "absent"
            case .exempt: "exempt"
            }
            return (grNumber, text)
        }, uniquingKeysWith: { first, _ in first })
    }

    private static func pickValues(_ assessments: [Assessment], chosen: String?, _ console: ConsoleRequest) -> [String: Any] {
        [
            "assessments": assessments.map { item in
                ["code": item.code, "text": "\(ConsoleDates.isolated(item.classCode)) · \(ConsoleDates.isolated(item.subjectCode)) · \(item.title) · \(ConsoleDates.isolated(item.date))", "selected": item.code == chosen] as [String: Any]
            },
            "none": assessments.isEmpty ? console.say(Words.noAssessments) : "",
            "pickLabel": console.say(Words.assessment), "open": console.say(Words.open), "action": console.pagePath("grades", "enter"),
            "saved": console.query["saved"].map { console.say(Words.saved, ["count": $0]) } ?? "",
        ]
    }

    private static func sheetValues(_ assessment: Assessment, students: [Student], entered: [String: String], problems: [String: String],
                                    _ console: ConsoleRequest) -> [String: Any] {
        [
            "assessment": assessment.code, "heading": "\(assessment.classCode) · \(assessment.subjectCode) · \(assessment.title)",
            "hint": console.say(Words.hint, ["max": GradeScale.number(assessment.maxMarks)]),
            "rows": students.map { student in
                ["gr": student.grNumber, "name": student.fullName, "value": entered[student.grNumber] ?? "",
                 "problem": problems[student.grNumber] ?? ""] as [String: Any]
            },
            "nameLabel": console.say(Words.student), "markLabel": console.say(Words.mark, ["max": GradeScale.number(assessment.maxMarks)]),
            "save": console.say(Words.save), "empty": students.isEmpty ? console.say(Words.noStudents) : "",
        ]
    }

    enum Words {
        static let title = LocalizedText(ar: "رصد الدرجات", en: "Grade entry")
        static let sheetTitle = LocalizedText(ar: "رصد الدرجات: {title}", en: "Grade entry: {title}")
        static let assessment = LocalizedText(ar: "التقييم", en: "Assessment")
        static let open = LocalizedText(ar: "فتح", en: "Open")
        static let noAssessments = LocalizedText(ar: "لا تقييمات لموادك بعد.", en: "No assessments for your subjects yet.")
        static let noStudents = LocalizedText(ar: "لا طلاب في هذا الفصل.", en: "No students in this class.")
        static let hint = LocalizedText(ar: "اكتب درجة من {max}، أو absent أو exempt. اترك الخانة فارغة لتخطّي الطالب، ثم احفظ مرة واحدة.",
                                        en: "Type a mark out of {max}, or absent or exempt. Leave a field empty to skip a student, then save once.")
        static let student = LocalizedText(ar: "الطالب", en: "Student")
        static let mark = LocalizedText(ar: "الدرجة (من {max})", en: "Mark (out of {max})")
        static let save = LocalizedText(ar: "حفظ الدرجات", en: "Save the marks")
        static let saved = LocalizedText(ar: "تم حفظ {count} درجة.", en: "Saved {count} marks.")
    }

    enum Templates {
        static let page = ConsoleTemplate("""
            {{#saved}}<p class="notice" role="status" id="saved">{{saved}}</p>{{/saved}}
            {{#error}}<p class="problem" role="alert" id="problems">{{error}}</p>{{/error}}
            {{#none}}<p>{{none}}</p>{{/none}}
            {{^none}}<form method="get" action="{{action}}" class="panel actions">
            <p><label for="assessment">{{pickLabel}}</label><select id="assessment" name="assessment">{{#assessments}}<option value="{{code}}"{{#selected}} selected{{/selected}}>{{text}}</option>{{/assessments}}</select></p>
            <button type="submit">{{open}}</button></form>{{/none}}
            {{#sheet}}<section class="panel" aria-labelledby="sheet-title"><h2 id="sheet-title"><bdi>{{heading}}</bdi></h2>
            {{#empty}}<p>{{empty}}</p>{{/empty}}
            {{^empty}}<form method="post" action="{{action}}" id="grades-form">
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="assessment" value="{{assessment}}">
            <p class="hint">{{hint}}</p>
            <table><thead><tr><th scope="col">{{nameLabel}}</th><th scope="col">{{markLabel}}</th></tr></thead>
            <tbody>{{#rows}}<tr><td><label for="mark-{{gr}}"><bdi>{{name}}</bdi></label> <code dir="ltr">{{gr}}</code></td>
            <td><input id="mark-{{gr}}" name="mark.{{gr}}" value="{{value}}" inputmode="decimal" dir="ltr" size="6"{{#problem}} aria-invalid="true" aria-describedby="problem-{{gr}}"{{/problem}}>
            {{#problem}}<span class="problem" id="problem-{{gr}}">{{problem}}</span>{{/problem}}</td></tr>{{/rows}}</tbody></table>
            <div class="sticky"><button type="submit" class="primary">{{save}}</button></div>
            </form>{{/empty}}
            </section>{{/sheet}}
            """)
    }
}
