import Core

/// A slot's JSON: `week` is the letter it runs in (`"A"`, `"B"`) or `"ALL"` for every week, the
/// same words `timetable slots add --week` takes, instead of the internal -1, 0, 1.
extension Slot {
    enum CodingKeys: String, CodingKey {
        case id, day, periodCode, startsAt, endsAt, week, classCode, subjectCode, subjectName, teacherEmail, teacherName, room
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        day = try container.decode(Int.self, forKey: .day)
        periodCode = try container.decode(String.self, forKey: .periodCode)
        startsAt = try container.decode(String.self, forKey: .startsAt)
        endsAt = try container.decode(String.self, forKey: .endsAt)
        let weekText = try container.decode(String.self, forKey: .week)
        guard let week = WeekSpec.parse(weekText) else {
            throw DecodingError.dataCorruptedError(forKey: .week, in: container, debugDescription: "A slot's week is ALL or a letter, not \(weekText)")
        }
        self.week = week
        classCode = try container.decode(String.self, forKey: .classCode)
        subjectCode = try container.decode(String.self, forKey: .subjectCode)
        subjectName = try container.decode(LocalizedText.self, forKey: .subjectName)
        teacherEmail = try container.decode(String.self, forKey: .teacherEmail)
        teacherName = try container.decode(String.self, forKey: .teacherName)
        room = try container.decode(String.self, forKey: .room)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(day, forKey: .day)
        try container.encode(periodCode, forKey: .periodCode)
        try container.encode(startsAt, forKey: .startsAt)
        try container.encode(endsAt, forKey: .endsAt)
        try container.encode(WeekSpec.name(week), forKey: .week)
        try container.encode(classCode, forKey: .classCode)
        try container.encode(subjectCode, forKey: .subjectCode)
        try container.encode(subjectName, forKey: .subjectName)
        try container.encode(teacherEmail, forKey: .teacherEmail)
        try container.encode(teacherName, forKey: .teacherName)
        try container.encode(room, forKey: .room)
    }
}

/// Whose timetable, as a client sends it: `{"class": "7A"}`, `{"teacher": "e@x"}`,
/// `{"student": "GR-0001"}`, or `{}` for one's own, instead of Swift's `{"classCode": {"_0": "7A"}}`.
extension TimetableTarget {
    private enum Key: String, CodingKey { case `class`, teacher, student }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        if let code = try container.decodeIfPresent(String.self, forKey: .class) {
            self = .classCode(code)
        } else if let email = try container.decodeIfPresent(String.self, forKey: .teacher) {
            self = .teacher(email)
        } else if let gr = try container.decodeIfPresent(String.self, forKey: .student) {
            self = .student(gr)
        } else {
            self = .mine
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .mine: break
        case .classCode(let code): try container.encode(code, forKey: .class)
        case .teacher(let email): try container.encode(email, forKey: .teacher)
        case .student(let gr): try container.encode(gr, forKey: .student)
        }
    }
}
