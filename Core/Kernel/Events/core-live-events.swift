import Foundation
import HogwartsBase
import HogwartsPostgreSQL

/// An event one person sees as it happens (a new notification), waiting to be stored with the
/// transaction that raised it. Its JSON is kept in both languages: the stream writes the one its
/// reader asked for.
struct PendingLiveEvent {
    let user: String
    let kind: String
    let arabic: String
    let english: String
}

/// A stored live event, as the stream reads it back.
package struct LiveEventRow: Sendable, Equatable {
    package let seq: Int64
    package let user: String
    let kind: String
    let arabic: String
    let english: String

    init(_ row: SQLRow) {
        seq = row["seq"] ?? 0
        user = row.string("user_id")
        kind = row.string("kind")
        arabic = row.string("data_ar")
        english = row.string("data_en")
    }

    /// One Server-Sent Events message: its id is what a reconnecting client sends back as `Last-Event-ID`.
    package func message(in language: Language) -> Data {
        Data("id: \(seq)\nevent: \(kind)\ndata: \(language == .en ? english : arabic)\n\n".utf8)
    }
}

/// Stores live events and reads them back in commit order.
package enum LiveOutbox {
    /// How long a stream can be away and still resume without missing anything.
    static let retention: TimeInterval = 3 * 86400

    /// Numbers the events from the school's clock and stores them. The clock row's lock is taken
    /// at the end of the run and held to its commit, so numbers are handed out in commit order: a
    /// reader that sees number 7 has every event up to 7 (no later commit brings a smaller one).
    static func store(_ events: [PendingLiveEvent], school: SchoolID, at time: Date, in db: any StorageConnection) throws {
        guard !events.isEmpty else { return }
        guard let last = try db.fetchValue(Int64.self, sql: """
            INSERT INTO kernel_live_clock (school_id, seq) VALUES (?, ?)
            ON CONFLICT (school_id) DO UPDATE SET seq = kernel_live_clock.seq + excluded.seq RETURNING seq
            """, arguments: [school, events.count])
        else { throw KernelError.storage("kernel_live_clock: no number returned") }
        for (offset, event) in events.enumerated() {
            try db.execute(sql: """
                INSERT INTO kernel_live_events (school_id, seq, user_id, kind, data_ar, data_en, at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [school, last - Int64(events.count - 1 - offset), event.user, event.kind, event.arabic, event.english, time])
        }
        // PostgreSQL tells every server's listener at commit (a rolled-back run tells no one).
        if db.dialect is PostgresDialect { try db.execute(sql: "SELECT pg_notify('\(PostgresListener.channel)', '')") }
        // Old events go every hundredth number (the scan is paid rarely); a quiet school keeps its few.
        if (last - Int64(events.count)) / 100 != last / 100 {
            try db.execute(sql: "DELETE FROM kernel_live_events WHERE school_id = ? AND at < ?", arguments: [school, time.addingTimeInterval(-retention)])
        }
    }

    /// The school's last number (0 before its first event).
    package static func clock(of school: SchoolID, in db: any StorageConnection) throws -> Int64 {
        try db.fetchValue(Int64.self, sql: "SELECT seq FROM kernel_live_clock WHERE school_id = ?", arguments: [school]) ?? 0
    }

    /// The school's oldest number still kept, nil when none is.
    package static func oldest(of school: SchoolID, in db: any StorageConnection) throws -> Int64? {
        try db.fetchValue(Int64.self, sql: "SELECT MIN(seq) FROM kernel_live_events WHERE school_id = ?", arguments: [school])
    }

    /// Events of the school after `seq`, up to `limit`, in order; only `user`'s when one is given.
    package static func events(of school: SchoolID, after seq: Int64, through last: Int64 = .max, user: String? = nil, limit: Int,
                       in db: any StorageConnection) throws -> [LiveEventRow] {
        let sql = """
            SELECT seq, user_id, kind, data_ar, data_en FROM kernel_live_events
            WHERE school_id = ? AND seq > ? AND seq <= ?\(user == nil ? "" : " AND user_id = ?") ORDER BY seq LIMIT ?
            """
        let arguments: [(any SQLValueConvertible)?] = user.map { [school, seq, last, $0, limit] } ?? [school, seq, last, limit]
        return try db.fetchAll(sql: sql, arguments: arguments).map(LiveEventRow.init)
    }
}
