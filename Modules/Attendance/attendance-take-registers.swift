import Core
import Foundation

/// Takes many class registers in one transaction: a day's registers from a school's office, the
/// bulk HTTP route, or a teacher's offline queue replayed by the sync.
///
/// Each register is validated exactly as `TakeAttendance` validates one (class, enrolment, edit
/// window, school-year dates, the principal's scope, marks named once) and written the same way
/// (advance notices, change history, absence events), through the same code.
///
/// **All or nothing.** Every register is validated before anything is written. If any register
/// is invalid, the whole batch is refused with `RegisterRefused`, which names the register
/// (its index, class, date and period) and why, and nothing at all is written. A batch that
/// passes leaves exactly the records, history and events that taking the same registers one by
/// one, in the same order, would leave (the same register twice: the second updates the first).
/// The audit record lists every register's counts.
public struct TakeRegisters: Action {
    public struct Input: Codable, Sendable {
        public var registers: [TakeAttendance.Input]
        public init(registers: [TakeAttendance.Input]) { self.registers = registers }
    }

    public struct Output: Codable, Sendable, Equatable {
        /// One result per register, in the order they were given.
        public let registers: [TakeAttendance.Output]
    }

    public static let id = "attendance.take-batch"
    public static let permission = AttendancePermissions.mark

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try ClassSession.rememberClassIDs(codes: input.registers.map(\.classCode), context)
        let read = try Self.sessions(input, context)
        for (index, register) in input.registers.enumerated() {
            do {
                let session = try ClassSession(classCode: register.classCode, date: register.date, period: register.period, context)
                read.sessions[index] = try RegisterTaking.validate(register, session: session, context)
            } catch {
                throw RegisterRefused(index: index, of: input.registers.count, register: register, reason: error, context)
            }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var written: Set<RegisterKey> = []
        var outputs: [TakeAttendance.Output] = []
        outputs.reserveCapacity(input.registers.count)
        let read = try Self.sessions(input, context)
        for (index, register) in input.registers.enumerated() {
            var session = try read.take(index) ?? ClassSession(classCode: register.classCode, date: register.date, period: register.period, context)
            // Read before anything was written: where an earlier register of this batch wrote
            // this class's records for the same date and period, read the class again so the
            // outcome is one-by-one's. Every class here is of the current school year, where a
            // student has one class (one enrolment per year), so registers of other classes
            // never share a record with this one.
            let key = RegisterKey(classID: session.classID, date: session.date, period: session.period)
            if !written.insert(key).inserted {
                session = try ClassSession(classCode: register.classCode, date: register.date, period: register.period, context)
            }
            outputs.append(try RegisterTaking.take(register, session: session, context))
        }
        context.auditDetail = "\(outputs.count) registers: " + outputs.map(RegisterTaking.auditLine).joined(separator: "; ")
        return Output(registers: outputs)
    }

    /// The registers' classes as validation read them, shared with the body through the run.
    private static func sessions(_ input: Input, _ context: ActionContext) throws -> Sessions {
        try context.remember("attendance.batch-sessions") { Sessions(count: input.registers.count) }
    }

    /// Each register's class as read, handed to the body once and then let go: a day's batch
    /// holds every class list once, not every register's copy until the end of the run.
    private final class Sessions {
        var sessions: [ClassSession?]
        init(count: Int) { sessions = Array(repeating: nil, count: count) }

        func take(_ index: Int) -> ClassSession? {
            defer { sessions[index] = nil }
            return sessions[index]
        }
    }

    /// One register's records: a class on a date and period.
    private struct RegisterKey: Hashable {
        let classID: String
        let date: CivilDate
        let period: String
    }
}

/// A batch refused because one register is invalid: which one, and why. Nothing was written.
public struct RegisterRefused: HogwartsError {
    /// The register's place in the batch, from 0.
    public let index: Int
    public let count: Int
    public let classCode: String
    /// As given, or today when the register names no date.
    public let date: String
    public let period: String
    /// What refused the register, as `TakeAttendance` would have refused it alone.
    public let reason: any Error
    /// The reason in the request's language.
    public let reasonText: String

    init(index: Int, of count: Int, register: TakeAttendance.Input, reason: any Error, _ context: ActionContext) {
        self.index = index
        self.count = count
        classCode = register.classCode
        date = register.date ?? context.today.description
        period = register.period.flatMap { $0.isEmpty ? nil : $0 } ?? AttendancePeriod.wholeDay
        self.reason = reason
        reasonText = context.localizer.message(for: reason)
    }

    public var messageKey: String { "attendance.error.register-refused" }

    public var messageArguments: [String: String] {
        ["number": String(index + 1), "count": String(count), "class": classCode, "date": date, "period": period, "reason": reasonText]
    }

    /// The register's own refusal decides: a class the teacher does not teach is a permission error.
    public var exitStatus: ExitStatus { (reason as? any HogwartsError)?.exitStatus ?? .invalidData }
}
