import Core
import Foundation

/// Subjects in the console: the person's own subjects this year (what a teacher teaches, what a
/// student or a guardian's children are taught) and the school's catalog with a search, each
/// with its year levels, classes and teachers. Both are the actions the apps' routes call.
extension StudentsConsole {
    static let subjects = ConsolePage("subjects", title: SubjectWords.title, permission: StudentsPermissions.readRoster) { console in
        let search = String((console.query["search"] ?? "").trimmingCharacters(in: .whitespaces).prefix(TextLimit.name))
        let mine = try await console.run(ListMySubjects.self, .init())
        let catalog = try await console.run(ListSubjectCatalog.self, .init(search: search.isEmpty ? nil : search))
        let separator = console.language.isRightToLeft ? "، " : ", "
        func rows(_ entries: [SubjectCatalogEntry]) -> [[String: Any]] {
            entries.map { entry in
                let levels = entry.yearLevels.map { $0.name.text(in: console.language) }.joined(separator: separator)
                let classes = entry.teaching.map { teaching in
                    console.say(SubjectWords.taughtBy, ["class": teaching.classCode, "teacher": teaching.teacherName ?? console.say(SubjectWords.noTeacher)])
                }
                return ["code": entry.subject.code, "name": entry.subject.name.text(in: console.language),
                        "credits": String(entry.subject.credits), "levels": levels.isEmpty ? console.say(SubjectWords.notTaught) : levels,
                        "classes": classes.joined(separator: separator)]
            }
        }
        let catalogRows = rows(catalog)
        var sections: [[String: Any]] = []
        if !mine.isEmpty { sections.append(["id": "mine", "heading": console.say(SubjectWords.mine), "rows": rows(mine), "none": ""]) }
        sections.append(["id": "catalog", "heading": console.say(SubjectWords.catalog), "rows": catalogRows, "searches": true,
                         "none": catalogRows.isEmpty ? console.say(search.isEmpty ? SubjectWords.noSubjects : SubjectWords.noMatch, ["search": search]) : ""])
        return .page(title: console.say(SubjectWords.title), body: SubjectTemplates.page.render(console.common.merging([
            "sections": sections,
            "action": console.pagePath("students", "subjects"), "searchLabel": console.say(SubjectWords.search), "search": search,
            "find": console.say(SubjectWords.find), "codeLabel": console.say(SubjectWords.code), "nameLabel": console.say(SubjectWords.name),
            "creditsLabel": console.say(SubjectWords.credits), "levelsLabel": console.say(SubjectWords.levels),
            "classesLabel": console.say(SubjectWords.classes),
        ]) { $1 }))
    }

    enum SubjectWords {
        static let title = LocalizedText(ar: "المواد", en: "Subjects")
        static let mine = LocalizedText(ar: "موادي هذا العام", en: "My subjects this year")
        static let catalog = LocalizedText(ar: "مواد المدرسة", en: "The school's subjects")
        static let search = LocalizedText(ar: "ابحث برمز المادة أو اسمها", en: "Search by code or name")
        static let find = LocalizedText(ar: "ابحث", en: "Search")
        static let noSubjects = LocalizedText(ar: "لا مواد في المدرسة بعد.", en: "The school has no subjects yet.")
        static let noMatch = LocalizedText(ar: "لا مادة تطابق «{search}».", en: "No subject matches “{search}”.")
        static let notTaught = LocalizedText(ar: "لا تُدرَّس هذا العام", en: "Not taught this year")
        static let noTeacher = LocalizedText(ar: "بلا معلم", en: "no teacher")
        static let taughtBy = LocalizedText(ar: "{class}: {teacher}", en: "{class}: {teacher}")
        static let code = LocalizedText(ar: "الرمز", en: "Code")
        static let name = LocalizedText(ar: "المادة", en: "Subject")
        static let credits = LocalizedText(ar: "الساعات", en: "Credits")
        static let levels = LocalizedText(ar: "المراحل", en: "Year levels")
        static let classes = LocalizedText(ar: "الفصول والمعلمون", en: "Classes and teachers")
    }

    enum SubjectTemplates {
        /// One table per section: the person's own subjects (when they have some), then the catalog.
        static let page = ConsoleTemplate("""
            {{#sections}}<section class="panel" aria-labelledby="subjects-{{id}}"><h2 id="subjects-{{id}}">{{heading}}</h2>
            {{#searches}}<form method="get" action="{{action}}" role="search"><p><label for="subjects-search">{{searchLabel}}</label>
            <input id="subjects-search" name="search" type="search" value="{{search}}" maxlength="200"> <button type="submit">{{find}}</button></p></form>{{/searches}}
            {{#none}}<p>{{none}}</p>{{/none}}
            {{^none}}<div class="table-wrap" tabindex="0" role="region" aria-labelledby="subjects-{{id}}"><table><thead><tr><th scope="col">{{codeLabel}}</th>
            <th scope="col">{{nameLabel}}</th><th scope="col">{{creditsLabel}}</th><th scope="col">{{levelsLabel}}</th><th scope="col">{{classesLabel}}</th></tr></thead>
            <tbody>{{#rows}}<tr><td><code dir="ltr">{{code}}</code></td><td><bdi>{{name}}</bdi></td><td dir="ltr">{{credits}}</td>
            <td>{{levels}}</td><td><bdi>{{classes}}</bdi></td></tr>{{/rows}}</tbody></table></div>{{/none}}
            </section>{{/sections}}
            """)
    }
}
