import Foundation
import HogwartsClient
import HogwartsTestSupport
import Synchronization
import Testing

/// The client library's `LiveEvents` against a real `hogwarts serve`, as an app holds it: it hears
/// an absence, comes back by itself after its server went away (and hears exactly what was marked
/// meanwhile, once), and ends with `sessionExpired` when the sign-in is over.
@Suite("The client library's live events", .waitsOnProcesses, .serialized)
struct LiveClientTests {
    final class Heard: Sendable {
        let events = Mutex<[LiveEvent]>([])
        let ending = Mutex<(any Error)?>(nil)
        let ended = Mutex(false)

        var links: [String] {
            events.withLock { events in
                events.compactMap { event in
                    let object = (try? JSONSerialization.jsonObject(with: event.data)) as? [String: Any]
                    return (object?["metadata"] as? [String: String])?["link"]
                }
            }
        }
    }

    @Test("LiveEvents hears an absence, resumes after its server restarts with exactly what it missed, and ends when signed out")
    func hearsResumesAndEnds() async throws {
        let hogwarts = try HogwartsProcess()
        defer { hogwarts.cleanUp() }
        #expect(try hogwarts.run(["demo"]).status == 0)
        var node = try ServedHogwarts(hogwarts)
        defer { _ = node.stop() }
        let port = node.port
        let settled = try await eventually(within: 90) {
            try hogwarts.strings("SELECT COUNT(*) FROM kernel_event_deliveries WHERE status = 'PENDING'").first == "0"
        }
        #expect(settled)
        let parent = try await node.signIn("parent@databayt.org")
        #expect(try hogwarts.login("teacher@databayt.org", school: "demo").status == 0)
        func markAbsent(_ date: String) throws {
            #expect(try hogwarts.run(["attendance", "take", "--class", "7A", "--date", date]).status == 0)
            #expect(try hogwarts.run(["attendance", "take", "--class", "7A", "--date", date, "--absent", "GR-0024"]).status == 0)
        }

        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let heard = Heard()
        // From the school's live clock as it stands, as an app resumes from the last id it kept:
        // an absence marked before the stream is open (a loaded machine) is still heard, once.
        let clock = try hogwarts.strings("""
            SELECT COALESCE(MAX(c.seq), 0) FROM kernel_live_clock c JOIN schools s ON s.id = c.school_id WHERE s.slug = 'demo'
            """).first.flatMap { Int64($0) }
        let listening = Task {
            do {
                for try await event in LiveEvents(baseURL: base, language: .en, after: clock, accessToken: { parent }) {
                    heard.events.withLock { $0.append(event) }
                }
            } catch {
                heard.ending.withLock { $0 = error }
            }
            heard.ended.withLock { $0 = true }
        }
        defer { listening.cancel() }

        try markAbsent(DemoDays.daysAgo(2))
        // 60 s, as after the restart below: at the busiest minute of a PostgreSQL pass on 2 cores
        // the command's delivery and the server's wake-up took longer than 30 s (heard later, in order).
        #expect(try await eventually(within: 60) { heard.links == ["attendance:GR-0024:\(DemoDays.daysAgo(2))"] }, "\(heard.links)")

        // The server goes; two absences are marked while it is away; it comes back on the same port.
        #expect(node.stop() == 0)
        try markAbsent(DemoDays.daysAgo(1))
        try markAbsent(DemoDays.today)
        node = try ServedHogwarts(hogwarts, arguments: ["--port", String(port)])
        let expected = [DemoDays.daysAgo(2), DemoDays.daysAgo(1), DemoDays.today].map { "attendance:GR-0024:\($0)" }
        #expect(try await eventually(within: 60) { heard.links.count >= 3 }, "\(heard.links)")
        try await Task.sleep(for: .seconds(2))
        #expect(heard.links == expected, "each once, in order")
        let ids = heard.events.withLock { $0.compactMap(\.id) }
        #expect(ids.count == 3 && ids == ids.sorted() && Set(ids).count == 3)

        // Signed out: the open stream ends at the next restart, and the refused return ends the sequence.
        #expect(try await node.request("POST", "/api/mobile/auth/logout", token: parent).status == 200)
        #expect(node.stop() == 0)
        node = try ServedHogwarts(hogwarts, arguments: ["--port", String(port)])
        #expect(try await eventually(within: 60) { heard.ended.withLock { $0 } })
        #expect(heard.ending.withLock { $0 as? ClientError } == .sessionExpired)
    }
}
