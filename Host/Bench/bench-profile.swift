import Attendance
import Core
import Foundation
import GRDB
import Students

/// One scenario's work alone, for counting instructions under callgrind:
///
///     valgrind --tool=callgrind --zero-before='*profileRegionStarts*' --dump-before='*profileRegionEnds*' \
///         .build/release/hogwarts-bench --profile take
///
/// The school is built first; callgrind's counters are zeroed as the region starts and dumped
/// as it ends (the file ending `.1`), and the bench prints how many units the region did, so
/// instructions per unit = that dump's total / units. A release binary's DWARF 5 stops
/// valgrind 3.19: run a copy made with `strip --strip-debug` (function names stay).
enum ProfileScenario: String, CaseIterable {
    /// One register per class (period P1), first marking, one `attendance.take` each.
    case take
    /// The same registers taken again with a change (the update path).
    case takeAgain = "take-again"
    /// Every class's P1 register as one `attendance.take-batch`, then again (two batches).
    case batch
    /// The per-register floor: the same rows, one prepared upsert, one commit per register.
    case takeFloor = "take-floor"
    /// The batch's floor: the same rows (every class's P1, then again) in one transaction each,
    /// one prepared upsert per row.
    case batchFloor = "batch-floor"
    /// The students CSV through `students.import`; a unit is one row.
    case `import`
    /// The import's floor: each student and their enrolment with prepared statements.
    case importFloor = "import-floor"
}

extension BenchSchool {
    /// Builds what `scenario` needs, runs it inside `profiledRegion`, and returns the units done.
    func profile(_ scenario: ProfileScenario) throws -> (units: Int, unit: String) {
        try buildRoster()
        switch scenario {
        case .import:
            let csv = studentsCSV()
            try profiledRegion { try run(ImportStudents.self, .init(csv: csv, dryRun: false)) }
            return (scale.students, "imported row")
        case .importFloor:
            let csv = studentsCSV()
            try profiledRegion { try importFloor(csv) }
            return (scale.students, "floor row")
        default:
            try run(ImportStudents.self, .init(csv: studentsCSV(), dryRun: false))
            try buildTimetable()
        }
        let registers = classCodes.map { TakeAttendance.Input(classCode: $0, period: "P1", marks: [AttendanceMark(student: "2", status: .absent)]) }
        let again = classCodes.map { TakeAttendance.Input(classCode: $0, period: "P1", marks: [AttendanceMark(student: "3", status: .late)]) }
        switch scenario {
        case .take:
            try profiledRegion { for register in registers { try run(TakeAttendance.self, register) } }
        case .takeAgain:
            for register in registers { try run(TakeAttendance.self, register) }
            try profiledRegion { for register in again { try run(TakeAttendance.self, register) } }
        case .batch:
            try profiledRegion {
                try run(TakeRegisters.self, .init(registers: registers))
                try run(TakeRegisters.self, .init(registers: again))
            }
            return (registers.count * 2, "register (in two batches: first marking, then update)")
        case .takeFloor:
            let members = try classMembers()
            try profiledRegion {
                for code in classCodes {
                    try raw.write { db in try upsertFloor(db, school: "floor-register", students: members[code] ?? [], periods: ["P1"], pass: 1) }
                }
            }
        case .batchFloor:
            let members = try classMembers()
            let students = classCodes.flatMap { members[$0] ?? [] }
            try profiledRegion {
                try raw.write { db in try upsertFloor(db, school: "floor", students: students, periods: ["P1"], pass: 1) }
                try raw.write { db in try upsertFloor(db, school: "floor", students: students, periods: ["P1"], pass: 2) }
            }
            return (registers.count * 2, "register (in two transactions: first marking, then update)")
        case .import, .importFloor:
            break
        }
        return (registers.count, "register of \(scale.students / max(1, scale.classes)) students")
    }
}

/// The counted region, between two calls callgrind watches for.
func profiledRegion(_ body: () throws -> Void) throws {
    profileRegionStarts()
    try body()
    profileRegionEnds()
}

/// Never inlined: only their names matter, to callgrind's `--zero-before` and `--dump-before`.
/// Each makes a system call, so the optimizer cannot drop the call as having no effect.
@inline(never)
func profileRegionStarts() { _ = getpid() }
@inline(never)
func profileRegionEnds() { _ = getppid() }
