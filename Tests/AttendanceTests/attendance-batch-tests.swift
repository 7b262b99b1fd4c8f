import Attendance
import Core
import Foundation
import HogwartsTestSupport
import Students
import Testing

@Suite("Attendance: many registers in one step")
struct BatchTests {
    /// A morning's registers: first marking, a second period, the same register again with changes, another class.
    static let registers: [TakeAttendance.Input] = [
        .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: "3", status: .absent), AttendanceMark(student: "12", status: .late, notes: "bus")]),
        .init(classCode: "7A", period: "P2", marks: [AttendanceMark(student: "5", status: .sick)]),
        .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: "3", status: .late), AttendanceMark(student: "4", status: .absent)]),
        .init(classCode: "7A", date: "2026-11-19", marks: [AttendanceMark(student: "1", status: .absent)]),
        .init(classCode: "8A", period: "P1", defaultStatus: .present, marks: [AttendanceMark(student: "2", status: .excused)]),
    ]

    @Test("a batch leaves exactly what taking the same registers one by one leaves: records, history, events and results")
    func sameAsOneByOne() throws {
        let batch = try AttendanceFixture()
        let single = try AttendanceFixture()
        let together = try batch.run(TakeRegisters.self, .init(registers: Self.registers))
        let oneByOne = try Self.registers.map { try single.run(TakeAttendance.self, $0) }
        #expect(together.registers == oneByOne)
        #expect(together.registers[2].created == 0 && together.registers[2].changed == 3, "the repeated register updates the first")
        #expect(try batch.run(EventLog.Dump.self, .init()) == (try single.run(EventLog.Dump.self, .init())))
        #expect(try batch.events().map(\.detail) == (try single.events().map(\.detail)))
    }

    @Test("one invalid register refuses the whole batch, naming the register and why, and nothing is written")
    func allOrNothing() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let stranger = try fixture.register("8A")[0].grNumber
        let before = try fixture.run(EventLog.Dump.self, .init())
        var registers = Array(Self.registers.prefix(2))
        registers.append(.init(classCode: "7A", period: "P3", marks: [AttendanceMark(student: stranger, status: .absent)]))
        let refused = #expect(throws: RegisterRefused.self) { try fixture.run(TakeRegisters.self, .init(registers: registers), as: teacher) }
        #expect(refused?.index == 2 && refused?.classCode == "7A" && refused?.date == "2026-11-22" && refused?.period == "P3")
        #expect(refused?.messageArguments["reason"]?.contains(stranger) == true)
        #expect(refused?.exitStatus == .invalidData)
        #expect(try fixture.run(EventLog.Dump.self, .init()) == before, "no record and no change history")
        #expect(try fixture.events().isEmpty, "no event")
    }

    @Test("each register is checked as if alone: the teacher's own classes, the edit window, school-year dates")
    func perRegisterRules() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        let before = try fixture.run(EventLog.Dump.self, .init())
        let cases: [(TakeAttendance.Input, Core.ExitStatus)] = [
            (.init(classCode: "8A", period: "P1"), .notFound),  // another teacher's class reads like no class
            (.init(classCode: "7A", date: "2026-11-02"), .permissionDenied),
            (.init(classCode: "7A", date: "2026-07-01"), .invalidData),
            (.init(classCode: "7A", period: "BRK"), .notFound),
        ]
        for (bad, status) in cases {
            let refused = #expect(throws: RegisterRefused.self) {
                try fixture.run(TakeRegisters.self, .init(registers: [.init(classCode: "7A", period: "P1"), bad]), as: teacher)
            }
            #expect(refused?.index == 1 && refused?.classCode == bad.classCode && refused?.exitStatus == status)
        }
        #expect(try fixture.run(EventLog.Dump.self, .init()) == before)
        let taken = try fixture.run(TakeRegisters.self, .init(registers: [.init(classCode: "7A", period: "P1"), .init(classCode: "7A", period: "P2")]), as: teacher)
        #expect(taken.registers.map(\.period) == ["P1", "P2"])
    }

    @Test("registers decode from a file with only the class required, in snake_case as --json prints")
    func decoding() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = #"[{"class_code": "7A"}, {"class_code": "7B", "period": "P2", "default_status": "ABSENT", "marks": [{"student": "1", "status": "PRESENT"}]}]"#
        let registers = try decoder.decode([TakeAttendance.Input].self, from: Data(json.utf8))
        #expect(registers[0].classCode == "7A" && registers[0].date == nil && registers[0].defaultStatus == .present && registers[0].marks.isEmpty)
        #expect(registers[1].defaultStatus == .absent && registers[1].marks == [AttendanceMark(student: "1", status: .present)] && registers[1].method == .manual)
    }
}

@Suite("Attendance: statistics")
struct StatsTests {
    @Test("whole-school stats equal a straightforward count of every stored record")
    func statsMatchRecords() throws {
        let fixture = try AttendanceFixture()
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: "2", status: .absent)]))
        let stats = try fixture.run(AttendanceStats.self, .init(from: "2026-08-01", to: "2026-11-22"))
        var students: [String: (name: String, classCode: String, totals: AttendanceTotals)] = [:]
        var classes: [String: AttendanceTotals] = [:]
        var days: [String: AttendanceTotals] = [:]
        var school = AttendanceTotals()
        for line in try fixture.run(EventLog.Dump.self, .init()).records {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let status = try #require(AttendanceStatus(rawValue: cells[5]))
            students[cells[0], default: (cells[1], cells[2], AttendanceTotals())].totals.add(status)
            classes[cells[2], default: AttendanceTotals()].add(status)
            days[cells[3], default: AttendanceTotals()].add(status)
            school.add(status)
        }
        #expect(stats.school.totals == school)
        #expect(stats.days.map(\.key) == days.keys.sorted() && stats.days.map(\.totals) == days.keys.sorted().compactMap { days[$0] })
        #expect(stats.classes.map(\.key) == classes.keys.sorted() && stats.classes.map(\.totals) == classes.keys.sorted().compactMap { classes[$0] })
        #expect(stats.students.count == students.count)
        for line in stats.students {
            let expected = try #require(students[line.grNumber])
            #expect(line.name == expected.name && line.classCode == expected.classCode && line.totals == expected.totals)
        }
        #expect(zip(stats.students, stats.students.dropFirst()).allSatisfy { ($0.classCode, $0.grNumber) < ($1.classCode, $1.grNumber) })
    }

    @Test("a class's and a teacher's stats count exactly the whole school's lines for those students")
    func scopedStatsMatchSchool() throws {
        let fixture = try AttendanceFixture()
        let teacher = try fixture.account("teacher@databayt.org")
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", period: "P1", marks: [AttendanceMark(student: "2", status: .absent)]))
        let school = try fixture.run(AttendanceStats.self, .init(from: "2026-08-01", to: "2026-11-22"))
        let oneClass = try fixture.run(AttendanceStats.self, .init(classCode: "7A", from: "2026-08-01", to: "2026-11-22"))
        let schoolLines = Dictionary(uniqueKeysWithValues: school.students.map { ($0.grNumber, $0) })
        #expect(!oneClass.students.isEmpty && oneClass.students.allSatisfy { $0.classCode == "7A" })
        for line in oneClass.students { #expect(schoolLines[line.grNumber]?.totals == line.totals) }
        #expect(oneClass.classes.map(\.key) == ["7A"] && oneClass.classes.first?.totals == school.classes.first { $0.key == "7A" }?.totals)
        #expect(oneClass.school.totals == oneClass.classes.first?.totals)
        #expect(oneClass.days.reduce(0) { $0 + $1.totals.counted } == oneClass.school.totals.counted)

        let taught = try fixture.run(AttendanceStats.self, .init(from: "2026-08-01", to: "2026-11-22"), as: teacher)
        #expect(!taught.students.isEmpty && taught.students.count < school.students.count)
        for line in taught.students { #expect(schoolLines[line.grNumber]?.totals == line.totals && schoolLines[line.grNumber]?.classCode == line.classCode) }
        let taughtClasses = Set(taught.students.map(\.classCode))
        #expect(Set(taught.classes.map(\.key)) == taughtClasses)
        #expect(taught.days.reduce(0) { $0 + $1.totals.counted } == taught.school.totals.counted)
    }
}
