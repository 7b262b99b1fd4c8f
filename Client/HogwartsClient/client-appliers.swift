import Foundation
import GRDB

/// What a local applier may do: read the view and write optimistic entities into the overlay,
/// inside the transaction that queues (or rebases) the mutation.
public struct LocalEffects {
    let db: Database
    public let seq: Int64
    /// The mutation's id (a UUID): stable across rebases, so optimistic ids are too.
    public let mutationID: String
    public let clientTime: String
    /// The signed-in user's id, when known.
    public let userID: String?

    public func entities(_ type: String) throws -> [LocalEntity] { try Replica.entities(type, db) }
    /// Only the entities whose string `field`s equal the given texts, filtered before decoding.
    public func entities(_ type: String, where fields: [(field: String, text: String)]) throws -> [LocalEntity] {
        try Replica.entities(type, matching: fields, db)
    }
    public func entity(_ type: String, id: String) throws -> LocalEntity? { try Replica.entity(type, id, db) }

    public func put(_ type: String, id: String, data: JSONValue) throws {
        try db.execute(sql: """
            INSERT INTO overlay (type, id, data, mutation_seq) VALUES (?, ?, ?, ?)
            ON CONFLICT(type, id) DO UPDATE SET data = excluded.data, mutation_seq = excluded.mutation_seq
            """, arguments: [type, id, try data.text(), seq])
    }

    public func remove(_ type: String, id: String) throws {
        try db.execute(sql: """
            INSERT INTO overlay (type, id, data, mutation_seq) VALUES (?, ?, NULL, ?)
            ON CONFLICT(type, id) DO UPDATE SET data = NULL, mutation_seq = excluded.mutation_seq
            """, arguments: [type, id, seq])
    }
}

/// The optimistic effect of a mutation on the local replica, by mutation name. A name with no
/// applier is still queued and sent; its effect shows once the server has it.
public typealias LocalApplier = @Sendable (_ args: JSONValue, _ effects: LocalEffects) throws -> Void

public struct LocalAppliers: Sendable {
    public var byName: [String: LocalApplier]

    public init(_ byName: [String: LocalApplier] = [:]) { self.byName = byName }

    /// The appliers this client ships with.
    public static let standard = LocalAppliers([
        "attendance.take@1": AttendanceApplier.take,
        "messages.send@1": MessagesApplier.send,
    ])
}

/// `attendance.take@1` (the server's `TakeAttendance` input): every student of the class gets
/// the default status unless marked otherwise, on the date and period given.
enum AttendanceApplier {
    static let take: LocalApplier = { args, effects in
        guard let code = args["classCode"]?.string,
              let schoolClass = try ClientQueries.findClass(code, in: try effects.entities("class")) else {
            return  // not in the replica: the server decides
        }
        let date = args["date"]?.string ?? String(effects.clientTime.prefix(10))
        let period = args["period"]?.string
        let defaultStatus = args["defaultStatus"]?.string ?? "PRESENT"
        var marks: [String: (status: String, note: JSONValue)] = [:]
        for mark in args["marks"]?.array ?? [] {
            if let student = mark["student"]?.string, let status = mark["status"]?.string {
                marks[student] = (status, mark["notes"] ?? .null)
            }
        }
        // Only this class's students and this class and day's records are read: the replica may
        // hold a year of the school's attendance, and a rebase runs this for every queued register.
        let students = try effects.entities("student", where: [("classId", schoolClass.id)]).filter { $0.data["classId"]?.string == schoolClass.id }
        let records = try effects.entities("attendance.record", where: [("classId", schoolClass.id), ("date", date)]).filter {
            $0.data["classId"]?.string == schoolClass.id && $0.data["date"]?.string == date && $0.data["period"]?.string == period
        }
        for mark in marks.keys where !students.contains(where: { $0.data["grNumber"]?.string == mark || $0.id == mark }) {
            throw ClientError.unknownStudent(mark)
        }
        for student in students {
            let gr = student.data["grNumber"]?.string ?? student.id
            let chosen = marks[gr] ?? marks[student.id]
            let existing = records.first { $0.data["studentId"]?.string == student.id }
            var data = existing?.data.object ?? [
                "studentId": .string(student.id), "classId": .string(schoolClass.id), "date": .string(date),
                "period": period.map(JSONValue.string) ?? .null, "note": .null,
            ]
            data["status"] = .string(chosen?.status ?? defaultStatus)
            if let note = chosen?.note, !note.isNull { data["note"] = note }
            let id = existing?.id ?? "local-\(effects.mutationID)-\(student.id)"
            data["id"] = .string(id)
            try effects.put("attendance.record", id: id, data: .object(data))
        }
    }
}

/// `messages.send@1`: the message shows at once in its conversation, marked pending, keyed by
/// the mutation's id (which the server uses as the message's client id).
enum MessagesApplier {
    static let send: LocalApplier = { args, effects in
        guard let conversation = args["conversation"]?.string ?? args["conversationId"]?.string,
              let body = args["body"]?.string else { return }
        let clientID = args["clientId"]?.string ?? effects.mutationID
        let id = "local-\(clientID)"
        try effects.put("message", id: id, data: [
            "id": .string(id), "conversationId": .string(conversation), "senderId": effects.userID.map(JSONValue.string) ?? .null,
            "body": .string(body), "sentAt": args["sentAt"] ?? .string(effects.clientTime), "clientId": .string(clientID),
        ])
    }
}

/// Look-ups over the view shared by the appliers and the command line.
public enum ClientQueries {
    /// A class by its code, name or id.
    public static func findClass(_ reference: String, in classes: [LocalEntity]) throws -> LocalEntity? {
        classes.first { $0.data["code"]?.string == reference } ?? classes.first { $0.data["name"]?.string == reference }
            ?? classes.first { $0.id == reference }
    }
}
