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
        // Validation needs each class list, not what is recorded: nothing a register read here
        // is kept for the body, which reads each register's records just before writing it. A
        // day's batch of a large school (24,000 registers) then holds its class lists once,
        // never every register's list with its records from validation to writing.
        for (index, register) in input.registers.enumerated() {
            do {
                let session = try ClassSession(listOf: register.classCode, date: register.date, period: register.period, context)
                _ = try RegisterTaking.validate(register, session: session, context)
            } catch {
                throw RegisterRefused(index: index, of: input.registers.count, register: register, reason: error, context)
            }
        }
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        var outputs: [TakeAttendance.Output] = []
        outputs.reserveCapacity(input.registers.count)
        for register in input.registers {
            // Read here, after the registers before it were written: where an earlier register
            // of this batch wrote the same class, date and period, this one updates those
            // records, as taking the registers one by one would. The list is the one validation read.
            let session = try ClassSession(classCode: register.classCode, date: register.date, period: register.period, context)
            outputs.append(try RegisterTaking.take(register, session: session, context))
        }
        context.auditDetail = "\(outputs.count) registers: " + outputs.map(RegisterTaking.auditLine).joined(separator: "; ")
        return Output(registers: outputs)
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
