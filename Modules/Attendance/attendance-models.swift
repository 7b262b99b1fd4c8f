import Core

public enum AttendanceStatus: String, Codable, Sendable, CaseIterable {
    case present = "PRESENT"
    case absent = "ABSENT"
    case late = "LATE"
    case excused = "EXCUSED"
    case sick = "SICK"
    case holiday = "HOLIDAY"
}

/// How a record was taken. Open: new methods (kiosk, RFID, ...) are new values, not a schema change.
public struct AttendanceMethod: RawRepresentable, Codable, Sendable, Hashable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let manual = AttendanceMethod(rawValue: "MANUAL")
    public static let qrCode = AttendanceMethod(rawValue: "QR_CODE")

    /// The methods a client may name when it marks (the web app's values).
    public static let known: [AttendanceMethod] = [.manual, .qrCode]
}

public enum ExcuseReason: String, Codable, Sendable, CaseIterable {
    case medical = "MEDICAL"
    case familyEmergency = "FAMILY_EMERGENCY"
    case religious = "RELIGIOUS"
    case schoolActivity = "SCHOOL_ACTIVITY"
    case transportation = "TRANSPORTATION"
    case weather = "WEATHER"
    case other = "OTHER"
}

public enum ReviewStatus: String, Codable, Sendable, CaseIterable {
    case pending = "PENDING"
    case approved = "APPROVED"
    case rejected = "REJECTED"
}

/// A record's period: a timetable period code, or the whole day.
public enum AttendancePeriod {
    public static let wholeDay = "DAY"
}

public struct AttendanceRecord: Codable, Sendable, Equatable {
    public let id: String
    public let grNumber: String
    public let studentName: String
    public let classCode: String
    public let date: CivilDate
    public let period: String
    public let status: AttendanceStatus
    public let method: String
    public let markedBy: String

    init(row: SQLRow) {
        id = row.string("id")
        grNumber = row.string("gr_number")
        studentName = "\(row.string("given_name")) \(row.string("surname"))"
        classCode = row.string("class_code")
        date = CivilDate(row.string("date")) ?? CivilDate(dayNumber: 0)
        period = row.string("period")
        status = AttendanceStatus(rawValue: row.string("status")) ?? .present
        method = row.string("method")
        markedBy = row.string("marked_by")
    }

    static let select = """
        SELECT r.*, s.gr_number, s.given_name, s.surname, c.code AS class_code FROM attendance_records r
        JOIN students_v1_students s ON s.school_id = r.school_id AND s.id = r.student_id
        JOIN students_v1_classes c ON c.school_id = r.school_id AND c.id = r.class_id
        """
}

/// Counts per status and the one attendance rate used everywhere:
///
///     rate = (PRESENT + LATE) / (PRESENT + LATE + ABSENT + EXCUSED + SICK)
///
/// HOLIDAY is not a session the student was expected at, so it is left out. EXCUSED and SICK
/// are expected sessions the student missed: they lower the rate (like Ed-Fi's "Excused
/// Absence" and England's authorised absence) but are never unexcused absences.
public struct AttendanceTotals: Codable, Sendable, Equatable {
    public var present = 0
    public var late = 0
    public var absent = 0
    public var excused = 0
    public var sick = 0
    public var holiday = 0

    public init() {}

    public mutating func add(_ status: AttendanceStatus, count: Int = 1) {
        switch status {
        case .present: present += count
        case .late: late += count
        case .absent: absent += count
        case .excused: excused += count
        case .sick: sick += count
        case .holiday: holiday += count
        }
    }

    public mutating func add(_ other: AttendanceTotals) {
        present += other.present
        late += other.late
        absent += other.absent
        excused += other.excused
        sick += other.sick
        holiday += other.holiday
    }

    /// Sessions the student was expected at.
    public var counted: Int { present + late + absent + excused + sick }
    /// Every missed expected session, excused or not.
    public var absences: Int { absent + excused + sick }

    /// As a percentage, nil when nothing counts yet.
    public var rate: Double? { counted == 0 ? nil : Double(present + late) / Double(counted) * 100 }

    public var band: RiskBand? { rate.map(RiskBand.init(rate:)) }
}

/// Chronic-absence bands used by the web app's dashboard.
public enum RiskBand: String, Codable, Sendable {
    case satisfactory = "SATISFACTORY"
    case atRisk = "AT_RISK"
    case moderatelyChronic = "MODERATELY_CHRONIC"
    case severelyChronic = "SEVERELY_CHRONIC"

    public init(rate: Double) {
        switch rate {
        case 95...: self = .satisfactory
        case 90..<95: self = .atRisk
        case 80..<90: self = .moderatelyChronic
        default: self = .severelyChronic
        }
    }
}

/// Ed-Fi's AttendanceEventCategoryDescriptor for each status; HOLIDAY is not an attendance event.
public enum EdFiCategory {
    public static func of(_ status: AttendanceStatus) -> String? {
        switch status {
        case .present: "In Attendance"
        case .late: "Tardy"
        case .absent: "Unexcused Absence"
        case .excused, .sick: "Excused Absence"
        case .holiday: nil
        }
    }
}
