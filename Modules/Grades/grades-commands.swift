import ArgumentParser
import Core
import Foundation

struct GradesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "grades", abstract: L("grades.cli.abstract"),
            subcommands: [Assessments.self, AddAssessment.self, Enter.self, Results.self, ReportCardCommand.self, History.self,
                          Publish.self, Override.self, ScaleCommand.self, Weights.self])
    }

    /// `scale` decides the decimals, so the number shown explains the letter beside it.
    static func percent(_ value: Double?, _ scale: GradeScale) -> String { value.map(scale.percentText) ?? "-" }
    static func passFail(_ passed: Bool?) -> String { passed.map { $0 ? L("grades.pass") : L("grades.fail") } ?? "-" }

    struct Assessments: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "assessments", abstract: L("grades.cli.assessments")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("class"), help: ArgumentHelp(L("grades.option.class"))) var classCode: String?
        @Option(name: .customLong("subject"), help: ArgumentHelp(L("grades.option.subject"))) var subject: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(ListAssessments.self, .init(classCode: classCode, subjectCode: subject))) { list in
                TextTable(headers: [L("grades.heading.code"), L("grades.heading.class"), L("grades.heading.subject"), L("grades.heading.kind"),
                                    L("grades.heading.title"), L("grades.heading.date"), L("grades.heading.max")],
                          rows: list.map { [$0.code, $0.classCode, $0.subjectCode, $0.kind.rawValue, $0.title, $0.date, GradeScale.number($0.maxMarks)] })
            }
        }
    }

    struct AddAssessment: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add-assessment", abstract: L("grades.cli.add-assessment")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("grades.argument.code"))) var code: String
        @Option(name: .customLong("class"), help: ArgumentHelp(L("grades.option.class"))) var classCode: String
        @Option(name: .customLong("subject"), help: ArgumentHelp(L("grades.option.subject"))) var subject: String
        @Option(name: .customLong("term"), help: ArgumentHelp(L("grades.option.term"))) var term: String
        @Option(name: .customLong("kind"), help: ArgumentHelp(L("grades.option.kind"))) var kind: String
        @Option(name: .customLong("title"), help: ArgumentHelp(L("grades.option.title"))) var title: String
        @Option(name: .customLong("date"), help: ArgumentHelp(L("grades.option.date"))) var date: String
        // Text, parsed by ArgumentValue: `--max -5` then gets a message naming --max, and nan,
        // inf or 0x10 never reach the action.
        @Option(name: .customLong("max"), parsing: .unconditional, help: ArgumentHelp(L("grades.option.max"))) var maxMarks: String
        @Option(name: .customLong("pass"), parsing: .unconditional, help: ArgumentHelp(L("grades.option.pass"))) var passingMarks: String
        @Option(name: .customLong("category"), help: ArgumentHelp(L("grades.option.category"))) var category = "coursework"

        func run() throws {
            guard let kind = AssessmentKind(rawValue: kind.uppercased()) else {
                throw CommandError.invalidArgument(name: "--kind", value: self.kind, expected: AssessmentKind.allCases.map(\.rawValue).joined(separator: "|"))
            }
            let maxMarks = try ArgumentValue.decimal(self.maxMarks, option: "--max", in: 0.01...1000)
            let passingMarks = try ArgumentValue.decimal(self.passingMarks, option: "--pass", in: 0...maxMarks)
            let session = try CommandSession(global, self.session)
            let assessment = try session.run(CreateAssessment.self, .init(code: code, classCode: classCode, subjectCode: subject, term: term, kind: kind,
                                                                         title: title, date: date, maxMarks: maxMarks, passingMarks: passingMarks, category: category))
            try session.output.emit(assessment) { L("grades.assessment.added", ["code": $0.code]) }
        }
    }

    struct Enter: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "enter", abstract: L("grades.cli.enter")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("assessment"), help: ArgumentHelp(L("grades.option.assessment"))) var assessment: String
        @Option(name: .customLong("scores"), help: ArgumentHelp(L("grades.option.scores"))) var scores: String?
        @Option(name: .customLong("file"), help: ArgumentHelp(L("grades.option.file"))) var file: String?

        func run() throws {
            var lines = (scores ?? "").split(separator: ",").map { pair -> ResultLine in
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                return ResultLine(student: parts.first ?? "", result: parts.count > 1 ? parts[1] : "")
            }
            if let file { lines += try ResultFile.read(file) }
            let session = try CommandSession(global, self.session)
            do {
                let result = try session.run(EnterResults.self, .init(assessment: assessment, lines: lines))
                try session.output.emit(result) { L("grades.entered", ["count": String($0.entered), "changed": String($0.changed), "assessment": $0.assessment]) }
            } catch GradesError.invalidResults(let problems) {
                // Every bad row, before the one-line failure: nothing was written.
                try session.output.emit(problems) { problems in
                    TextTable(headers: [L("grades.heading.row"), L("grades.heading.student"), L("grades.heading.reason")],
                              rows: problems.map { [String($0.row), $0.student, $0.reason] })
                }
                throw GradesError.invalidResults(problems)
            }
        }
    }

    struct Results: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "results", abstract: L("grades.cli.results")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("grades.option.student-default"))) var student: String?
        @Option(name: .customLong("term"), help: ArgumentHelp(L("grades.option.term"))) var term: String?

        func run() throws {
            let session = try CommandSession(global, self.session)
            let results = try session.run(StudentResults.self, .init(grNumber: student, term: term))
            let scale = try session.run(ShowScale.self, .init())
            try session.output.emit(results) { results in
                TextTable(headers: [L("grades.heading.date"), L("grades.heading.subject"), L("grades.heading.title"), L("grades.heading.score"),
                                    L("grades.heading.percent"), L("grades.heading.letter"), L("grades.heading.result")],
                          rows: results.map { [$0.date, $0.subjectCode, $0.title,
                                               $0.state == .scored ? "\(GradeScale.number($0.score ?? 0))/\(GradeScale.number($0.maxMarks))" : $0.state.rawValue,
                                               GradesCommand.percent($0.percentage, scale), $0.letter ?? "-", GradesCommand.passFail($0.passed)] })
            }
        }
    }

    struct ReportCardCommand: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "report-card", abstract: L("grades.cli.report-card")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("grades.option.student-default"))) var student: String?
        @Option(name: .customLong("term"), help: ArgumentHelp(L("grades.option.term"))) var term: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let language = session.kernel.localizer.language
            let card = try session.run(ReportCard.self, .init(grNumber: student, term: term))
            let scale = try session.run(ShowScale.self, .init())
            try session.output.emit(card) { card in
                var table = TextTable(
                    headers: [L("grades.heading.subject"), L("grades.heading.credits"), L("grades.heading.percent"), L("grades.heading.letter"), L("grades.heading.result")],
                    rows: card.record.subjects.map { [$0.subjectName.text(in: language), GradeScale.number($0.credits), GradesCommand.percent($0.percentage, scale),
                                                      ($0.letter ?? "-") + ($0.overrideReason.map { " (\(L("grades.overridden")): \($0))" } ?? ""),
                                                      GradesCommand.passFail($0.passed)] })
                let attendance = card.attendance.map { counts in
                    L("grades.card.attendance", ["present": String(counts.present), "absent": String(counts.absent), "late": String(counts.late)])
                } ?? ""
                table.footer = L(card.published ? "grades.card.footer" : "grades.card.footer-draft", [
                    "name": card.studentName, "class": card.classCode, "term": card.term.text(in: language),
                    "gpa": card.record.gpa.map { String(format: "%.2f", $0) } ?? "-", "rank": card.rank.map(String.init) ?? "-", "size": String(card.classSize),
                ]) + (attendance.isEmpty ? "" : "\n" + attendance)
                return table
            }
        }
    }

    struct History: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "history", abstract: L("grades.cli.history")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("grades.option.student-default"))) var student: String?
        @Option(name: .customLong("subject"), help: ArgumentHelp(L("grades.option.subject"))) var subject: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let results = try session.run(GradeHistory.self, .init(grNumber: student, subjectCode: subject))
            let scale = try session.run(ShowScale.self, .init())
            try session.output.emit(results) { results in
                TextTable(lines: results.map { result in
                    let percentage = result.percentage ?? 0
                    let bar = String(repeating: "█", count: Int((percentage / 5).rounded()))
                    let shown = scale.percentText(percentage)
                    return "\(result.date)  \(bar)\(String(repeating: "·", count: max(0, 20 - bar.count)))  \(String(repeating: " ", count: max(0, 6 - shown.count)))\(shown) \(result.letter ?? "")  \(result.title)"
                })
            }
        }
    }

    struct Publish: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "publish", abstract: L("grades.cli.publish")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("term"), help: ArgumentHelp(L("grades.option.term"))) var term: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            let count = try session.run(PublishReportCards.self, .init(term: term))
            try session.output.emit(["published": count]) { _ in L("grades.published", ["count": String(count), "term": term]) }
        }
    }

    struct Override: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "override", abstract: L("grades.cli.override")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Option(name: .customLong("student"), help: ArgumentHelp(L("grades.option.student"))) var student: String
        @Option(name: .customLong("term"), help: ArgumentHelp(L("grades.option.term"))) var term: String
        @Option(name: .customLong("subject"), help: ArgumentHelp(L("grades.option.subject"))) var subject: String
        @Option(name: .customLong("letter"), help: ArgumentHelp(L("grades.option.letter"))) var letter: String
        @Option(name: .customLong("reason"), help: ArgumentHelp(L("grades.option.reason"))) var reason: String

        func run() throws {
            let session = try CommandSession(global, self.session)
            try session.run(OverrideGrade.self, .init(grNumber: student, term: term, subjectCode: subject, letter: letter, reason: reason))
            try session.output.emit(["letter": letter]) { _ in L("grades.overridden.done", ["student": student, "subject": subject, "letter": letter]) }
        }
    }

    struct ScaleCommand: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "scale", abstract: L("grades.cli.scale"), subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)
        }

        static func table(_ scale: GradeScale) -> TextTable {
            var table = TextTable(headers: [L("grades.heading.letter"), L("grades.heading.from"), L("grades.heading.points"), L("grades.heading.result")],
                                  rows: scale.bands.map { [$0.letter, GradeScale.number($0.lowerBound), String($0.points), GradesCommand.passFail($0.passing)] })
            table.footer = "\(scale.name): \(scale.text)"
            return table
        }

        struct Show: ParsableCommand {
            static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: L("grades.cli.scale.show")) }
            @OptionGroup var global: GlobalOptions
            @OptionGroup var session: SessionOptions

            func run() throws {
                let session = try CommandSession(global, self.session)
                try session.output.emit(try session.run(ShowScale.self, .init()), table: ScaleCommand.table)
            }
        }

        struct Set: ParsableCommand {
            static var configuration: CommandConfiguration { CommandConfiguration(commandName: "set", abstract: L("grades.cli.scale.set")) }
            @OptionGroup var global: GlobalOptions
            @OptionGroup var session: SessionOptions
            @Option(name: .customLong("name"), help: ArgumentHelp(L("grades.option.scale-name"))) var name: String
            @Option(name: .customLong("bands"), help: ArgumentHelp(L("grades.option.bands"))) var bands: String

            func run() throws {
                let session = try CommandSession(global, self.session)
                try session.output.emit(try session.run(SetScale.self, .init(name: name, bands: bands)), table: ScaleCommand.table)
            }
        }
    }

    struct Weights: ParsableCommand {
        static var configuration: CommandConfiguration { CommandConfiguration(commandName: "weights", abstract: L("grades.cli.weights")) }
        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions
        @Argument(help: ArgumentHelp(L("grades.argument.weights"))) var weights: String

        func run() throws {
            let parsed = try Self.parse(weights)
            let session = try CommandSession(global, self.session)
            try session.output.emit(try session.run(SetWeights.self, .init(weights: parsed))) { weights in
                L("grades.weights.saved", ["weights": weights.sorted { $0.key < $1.key }.map { "\($0.key)=\(GradeScale.number($0.value))" }.joined(separator: ", ")])
            }
        }
    }
}

extension GradesCommand.Weights {
    /// `exams=60,coursework=40`: each weight a plain decimal (no nan, inf or 0x10), each category once.
    static func parse(_ text: String) throws -> [String: Double] {
        var parsed: [String: Double] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let weight = StrictNumber.decimal(parts[1]), weight > 0, weight <= 100,
                  parsed.updateValue(weight, forKey: parts[0]) == nil
            else { throw GradesError.invalidWeights(TextInput.printable(String(pair))) }
        }
        return parsed
    }
}

/// Results from a file: CSV `student,result` with a header row, or JSON `[{"student": "...", "result": "85"}]`.
enum ResultFile {
    static func read(_ path: String) throws -> [ResultLine] {
        guard let data = FileManager.default.contents(atPath: path) else { throw KernelError.fileMissing(path) }
        if path.lowercased().hasSuffix(".json") {
            do { return try JSONDecoder().decode([ResultLine].self, from: data) } catch { throw GradesError.invalidFile(path) }
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { CSVCell.restored($0.trimmingCharacters(in: .whitespaces)) }
            return ResultLine(student: cells.first ?? "", result: cells.count > 1 ? cells[1] : "")
        }
    }
}
