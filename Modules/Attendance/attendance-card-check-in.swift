import ArgumentParser
import Core
import Foundation
import Students

/// ID cards' answer to whose card a scanned QR payload is, as that module gives it (by name and
/// shape: Attendance does not depend on ID cards). Nil `userID`: not a valid card of this school.
/// `AttendanceCardCheckInTests` asks it end to end: a shape that differed would fail every scan.
enum CardHolderQuery: NamedQuery {
    static let name = "id-cards.holder"

    struct Request: Codable, Sendable, Equatable {
        var payload: String
    }

    struct Answer: Codable, Sendable, Equatable {
        var userID: String?
    }
}

/// A teacher or an administrator scans a student's ID card (the QR code on the card the app
/// shows) to mark them in a class's register for today: at the classroom door, or a late
/// arrival signed in at the office. No mark yet: PRESENT. Marked otherwise already (ABSENT when
/// the register was taken): LATE, since they came after it. PRESENT or LATE: nothing changes.
/// A card that is not a student's of this class is refused without naming its holder.
public struct CheckInByCard: Action {
    public struct Input: Codable, Sendable {
        /// The class by code (the command line) or by id (the API's `class_id`); one of them.
        public var classCode: String?
        public var classID: String?
        public var period: String?
        /// The card's QR payload, as scanned.
        public var payload: String

        public init(classCode: String? = nil, classID: String? = nil, period: String? = nil, payload: String) {
            self.classCode = classCode
            self.classID = classID
            self.period = period
            self.payload = payload
        }
    }

    public struct Output: Codable, Sendable, Equatable {
        public let studentID: String
        public let grNumber: String
        public let name: String
        public let classID: String
        public let classCode: String
        public let status: AttendanceStatus
        public let alreadyCheckedIn: Bool
    }

    public static let id = "attendance.check-in-card"
    public static let permission = AttendancePermissions.mark

    /// A card's payload is a compact JWS of a few hundred characters.
    static let payloadLimit = 2_000

    public init() {}

    public func validate(_ input: Input, in context: ActionContext) throws {
        try TextInput.check(input.payload, field: "payload", maxLength: Self.payloadLimit)
        try TextInput.check(input.period ?? "", field: "period", maxLength: TextLimit.name)
        let (session, _) = try Self.resolve(input, context)
        try session.checkDate(context)
    }

    public func perform(_ input: Input, in context: ActionContext) throws -> Output {
        let (session, member) = try Self.resolve(input, context)
        let alreadyIn = member.isCheckedIn
        let status: AttendanceStatus = member.status.map { alreadyIn ? $0 : .late } ?? .present
        if !alreadyIn {
            _ = try RecordWriter.write(student: member, status: status, classID: session.classID, classCode: session.classCode,
                                       date: session.date, period: session.period, method: .qrCode, notes: nil, context)
        }
        context.auditDetail = "\(member.grNumber) \(status.rawValue) \(session.classCode) \(session.date)"
        return Output(studentID: member.studentID, grNumber: member.grNumber, name: member.name, classID: session.classID,
                      classCode: session.classCode, status: status, alreadyCheckedIn: alreadyIn)
    }

    /// Today's register of the class, and the card holder in it; read once per run.
    private static func resolve(_ input: Input, _ context: ActionContext) throws -> (ClassSession, ClassSession.Member) {
        try context.remember("attendance.check-in-card") {
            guard (input.classID == nil) != (input.classCode == nil) else { throw AttendanceError.oneClass }
            let session = try ClassSession(classID: input.classID, classCode: input.classCode, date: nil, period: input.period, context)
            // Scope before the card: another teacher's class is a class that does not exist.
            try ClassAccess.require(classID: session.classID, named: input.classID ?? session.classCode, context)
            guard let holder = try context.ask(CardHolderQuery.self, .init(payload: input.payload)) else { throw AttendanceError.cardsOff }
            guard let account = holder.userID else { throw AttendanceError.cardInvalid }
            guard let student = try Roster.student(accountID: account, context),
                  let member = session.members.first(where: { $0.studentID == student.id })
            else { throw AttendanceError.cardNotInClass(session.classCode) }
            return (session, member)
        }
    }
}

/// `hogwarts attendance scan-card --class 7A --card <QR text>`: what a door scanner sends.
struct ScanCardCommand: ParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "scan-card", abstract: L("attendance.cli.scan-card")) }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var session: SessionOptions
    @Option(name: .customLong("class"), help: ArgumentHelp(L("attendance.option.class"))) var classCode: String
    @Option(name: .customLong("period"), help: ArgumentHelp(L("attendance.option.period"))) var period: String?
    @Option(name: .customLong("card"), help: ArgumentHelp(L("attendance.option.card"))) var card: String

    func run() throws {
        let session = try CommandSession(global, self.session)
        let result = try session.run(CheckInByCard.self, .init(classCode: classCode, period: period, payload: card))
        try session.output.emit(result) { result in
            L(result.alreadyCheckedIn ? "attendance.card-check-in.again" : "attendance.card-check-in.done",
              ["name": result.name, "gr": result.grNumber, "class": result.classCode, "status": result.status.rawValue])
        }
    }
}
