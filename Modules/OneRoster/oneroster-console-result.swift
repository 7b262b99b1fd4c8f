import Core

/// What the import page says after an import: the records created, updated and archived by kind,
/// what had no place here, and each new account's one-time code, shown this once.
enum OneRosterConsoleResult {
    static func done(_ report: OneRosterImportReport, _ console: ConsoleRequest) -> ConsoleResponse {
        typealias Words = OneRosterConsole.Words
        func counts(_ counts: [String: Int], _ text: LocalizedText) -> [[String: String]] {
            counts.sorted { $0.key < $1.key }.map { ["line": console.say(text, ["kind": $0.key, "count": String($0.value)])] }
        }
        let lines = counts(report.created, Words.created) + counts(report.updated, Words.updated) + counts(report.archived, Words.archived)
        return .page(title: console.say(Words.title), body: OneRosterConsole.Templates.done.render(console.common.merging([
            "done": console.say(Words.done, ["version": report.version]), "lines": lines,
            "none": lines.isEmpty ? console.say(Words.nothing) : "",
            "notImported": report.notImported.isEmpty ? "" : console.say(Words.notImported, ["count": String(report.notImported.count)]),
            "warnings": OneRosterConsole.warningsTable(report.warnings, console),
            "codesIntro": report.codes.isEmpty ? "" : console.say(Words.codes, ["count": String(report.codes.count)]),
            "emailLabel": console.say(Words.email), "codeLabel": console.say(Words.code), "expiresLabel": console.say(Words.expires),
            "codes": report.codes.map { ["email": $0.email, "code": $0.code, "expires": ConsoleDates.isolated($0.expiresOn)] },
            "students": console.enabledModules.contains("students") ? console.pagePath("students", "students") : "", "studentsText": console.say(Words.toStudents),
        ]) { $1 }))
    }
}
