import Auth
import Core
import Foundation
import Students

/// A OneRoster 1.2 bulk set: each file's name (`users.csv`) and text, and its row counts.
public struct OneRosterExport: Codable, Sendable {
    public let files: [String: String]
    public let rows: [String: Int]
}

/// Writes the school as a OneRoster 1.2 bulk set: orgs, academicSessions, courses, classes,
/// users, roles, demographics and enrollments, and categories, lineItems and results where
/// Grades is on. sourcedIds are those the information system gave (from the id map), else the
/// Hogwarts ids, so they are the same at every export.
public struct ExportOneRoster: Action {
    public struct Input: Codable, Sendable { public init() {} }

    public static let id = "oneroster.export"
    public static let permission = OneRosterPermissions.exportRoster
    public static let isReadOnly = true

    public init() {}

    public func perform(_ input: Input, in context: ActionContext) throws -> OneRosterExport {
        var builder = try OneRosterExportBuilder(context)
        try builder.build()
        return builder.export()
    }
}

struct OneRosterExportBuilder {
    let context: ActionContext
    let ids: OneRosterIDs
    let language: Language
    var tables: [String: (header: [String], rows: [[String]])] = [:]
    let school: String
    /// Hogwarts ids to the sourcedIds written.
    var classSourced: [String: String] = [:]
    var subjectSourced: [String: String] = [:]
    var termSourced: [String: String] = [:]
    var studentSourced: [String: String] = [:]
    var accountSourced: [String: String] = [:]

    init(_ context: ActionContext) throws {
        self.context = context
        ids = try OneRosterIDs(context)
        language = context.localizer.language
        school = ids.sourcedId(OneRosterKind.org, of: context.school.id) ?? context.school.id
    }

    static func header(_ file: String) -> [String] {
        (OneRosterSpec.columns(of: file, .v1_2) ?? []).map(\.name)
    }

    mutating func add(_ file: String, _ values: [String: String]) {
        if tables[file] == nil { tables[file] = (Self.header(file) + (file == "classes" ? ["metadata.hogwarts.homeroom"] : []), []) }
        let header = tables[file]?.header ?? []
        tables[file]?.rows.append(header.map { values[$0] ?? "" })
    }

    func text(_ value: LocalizedText) -> String { language == .en ? value.en : value.ar }

    mutating func build() throws {
        add("orgs", ["sourcedId": school, "name": text(context.school.name), "type": "school", "identifier": context.school.slug])
        let terms = try sessions()
        try courses()
        let classes = try OneRosterCall.run(ListClasses.self, .init(), context)
        let teaching = try OneRosterExportReads.teaching(context)
        try homeroomClasses(classes, terms: terms)
        try sections(classes, teaching, terms: terms)
        try people(classes, teaching)
        try grades()
    }

    /// School years and their terms; 1.2 `endDate` is the day after the last day. Returns the
    /// current year's terms, which every class runs in (Hogwarts classes belong to the current year).
    private mutating func sessions() throws -> [String] {
        let years = try OneRosterExportReads.schoolYears(context)
        let current = try Roster.currentSchoolYearID(context)
        var yearSourced: [String: String] = [:]
        var currentName: String?
        for year in years {
            let id = ids.sourcedId(OneRosterKind.session, of: "year:" + year.name) ?? "year-" + year.name
            yearSourced[year.name] = id
            if year.id == current { currentName = year.name }
            add("academicSessions", ["sourcedId": id, "title": year.name, "type": "schoolYear", "startDate": year.startsOn,
                                     "endDate": CivilDateText.adding(1, to: year.endsOn), "schoolYear": String(year.endsOn.prefix(4))])
        }
        let yearEnds = Dictionary(years.map { ($0.name, $0.endsOn) }) { first, _ in first }
        var currentTerms: [String] = []
        for term in try OneRosterCall.run(ListTerms.self, .init(), context) {
            let id = ids.sourcedId(OneRosterKind.session, of: term.id) ?? term.id
            termSourced[term.id] = id
            add("academicSessions", ["sourcedId": id, "title": text(term.name), "type": "term", "startDate": term.startsOn,
                                     "endDate": CivilDateText.adding(1, to: term.endsOn), "parentSourcedId": yearSourced[term.schoolYear] ?? "",
                                     "schoolYear": String((yearEnds[term.schoolYear] ?? term.endsOn).prefix(4))])
            if term.schoolYear == currentName { currentTerms.append(id) }
        }
        return currentTerms.isEmpty ? currentName.flatMap { yearSourced[$0] }.map { [$0] } ?? [] : currentTerms
    }

    private mutating func courses() throws {
        for subject in try OneRosterCall.run(ListSubjects.self, .init(), context) {
            let id = ids.sourcedId(OneRosterKind.course, of: subject.id) ?? subject.id
            subjectSourced[subject.id] = id
            add("courses", ["sourcedId": id, "title": text(subject.name), "courseCode": subject.code, "orgSourcedId": school])
        }
    }

    /// Each class is a `homeroom` class; its course is its year level's homeroom course.
    private mutating func homeroomClasses(_ classes: [SchoolClass], terms: [String]) throws {
        var levels: [String] = []
        for schoolClass in classes {
            let grade = OneRosterGrades.grade(ofLevel: schoolClass.yearLevel)
            let course = "homeroom-" + schoolClass.yearLevel
            if !levels.contains(schoolClass.yearLevel) {
                levels.append(schoolClass.yearLevel)
                add("courses", ["sourcedId": course, "title": "Homeroom " + schoolClass.yearLevel, "courseCode": "HR-" + schoolClass.yearLevel,
                                "grades": grade, "orgSourcedId": school])
            }
            let id = ids.sourcedId(OneRosterKind.classRecord, of: schoolClass.id) ?? schoolClass.id
            classSourced[schoolClass.id] = id
            add("classes", ["sourcedId": id, "title": text(schoolClass.name), "grades": grade, "courseSourcedId": course,
                            "classCode": schoolClass.code, "classType": "homeroom", "schoolSourcedId": school, "termSourcedIds": terms.joined(separator: ",")])
        }
    }

    /// Each subject taught in a class is a `scheduled` class of that subject's course, tied back
    /// to its homeroom class by `metadata.hogwarts.homeroom`.
    private mutating func sections(_ classes: [SchoolClass], _ teaching: [OneRosterExportReads.Teaching], terms: [String]) throws {
        let byID = Dictionary(classes.map { ($0.id, $0) }) { first, _ in first }
        let subjects = Dictionary(try OneRosterCall.run(ListSubjects.self, .init(), context).map { ($0.id, $0) }) { first, _ in first }
        for row in teaching {
            guard let schoolClass = byID[row.classID], let subject = subjects[row.subjectID], let homeroom = classSourced[row.classID] else { continue }
            let id = ids.sourcedId(OneRosterKind.section, of: row.classID + "|" + row.subjectID) ?? row.classID + "-" + row.subjectID
            add("classes", ["sourcedId": id, "title": text(schoolClass.name) + " " + text(subject.name),
                            "grades": OneRosterGrades.grade(ofLevel: schoolClass.yearLevel), "courseSourcedId": subjectSourced[row.subjectID] ?? row.subjectID,
                            "classCode": String((schoolClass.code + "-" + subject.code).prefix(TextLimit.code)), "classType": "scheduled",
                            "schoolSourcedId": school, "termSourcedIds": terms.joined(separator: ","), "metadata.hogwarts.homeroom": homeroom])
        }
    }

    func export() -> OneRosterExport {
        var files: [String: String] = [:]
        var rows: [String: Int] = [:]
        for (name, table) in tables where !table.rows.isEmpty {
            files[name + ".csv"] = OneRosterCSV.write(header: table.header, rows: table.rows)
            rows[name] = table.rows.count
        }
        var manifest: [[String]] = [["manifest.version", "1.0"], ["oneroster.version", "1.2"]]
        for name in OneRosterSpec.knownFiles.sorted() { manifest.append(["file." + name, rows[name] == nil ? "absent" : "bulk"]) }
        manifest += [["source.systemName", "Hogwarts"], ["source.systemCode", context.school.slug]]
        files["manifest.csv"] = OneRosterCSV.write(header: ["propertyName", "value"], rows: manifest)
        return OneRosterExport(files: files, rows: rows)
    }
}
