@testable import Core
import Foundation
import HogwartsTestSupport
import Testing

@Suite("Events", .serialized)
struct EventTests {
    @Test("handlers run only for schools where the handling module is enabled")
    func onlyEnabledSchools() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        let other = try harness.kernel.createSchool(NewSchool(slug: "no-digest", name: LocalizedText(ar: "م", en: "N"), enabledModules: ["notes"]))
        try harness.kernel.run(AddNote.self, .init(title: "Other"), as: harness.user(.admin, in: other), in: other.id)
        try harness.run(AddNote.self, .init(title: "Mine"), as: .admin)
        try harness.kernel.enable("digest", for: other.id, by: .localOperator)
        #expect(try harness.kernel.run(ListDigest.self, .init(), as: harness.user(.admin, in: other), in: other.id).isEmpty)
        #expect(try harness.run(ListDigest.self, .init(), as: .admin) == ["Mine"])
    }

    @Test("an event committed with its action is delivered after a restart, even if its handler failed first")
    func neverLost() throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()], clock: { clock.now })
        FailureSwitch.shared.isOn = true
        try harness.run(AddNote.self, .init(title: "explode"), as: .admin)
        FailureSwitch.shared.isOn = false
        #expect(try harness.run(ListDigest.self, .init(), as: .admin).isEmpty, "the handler failed; the action still committed")
        #expect(try harness.run(ListNotes.self, .init(), as: .admin) == ["explode"])

        // A new process on the same file, later than the retry backoff.
        clock.advance(60)
        let restarted = try Kernel(databasePath: harness.databasePath, modules: [NotesModule(), DigestModule()], clock: { clock.now })
        #expect(restarted.deliverPendingEvents() == EventDeliveryReport(delivered: 1, retrying: 0, failed: 0))
        #expect(try restarted.run(ListDigest.self, .init(), as: harness.user(.admin), in: harness.school.id) == ["explode"])
        #expect(restarted.deliverPendingEvents() == EventDeliveryReport(), "delivered once, never twice")
    }

    @Test("a failed handler is retried once its backoff has passed by the same process's next action, even one that publishes nothing")
    func retriedWithoutRestart() throws {
        let clock = TestClock()
        let harness = try TestHarness(modules: [NotesModule(), DigestModule(), QuietModule()], clock: { clock.now })
        FailureSwitch.shared.isOn = true
        defer { FailureSwitch.shared.isOn = false }
        try harness.run(AddNote.self, .init(title: "explode"), as: .admin)
        FailureSwitch.shared.isOn = false
        #expect(try harness.run(ListDigest.self, .init(), as: .admin).isEmpty, "the handler failed; the action still committed")
        clock.advance(60)
        try harness.run(Touch.self, .init(), as: .admin)
        #expect(try harness.run(ListDigest.self, .init(), as: .admin) == ["explode"])
        #expect(harness.kernel.deliverPendingEvents() == EventDeliveryReport(), "delivered once, never twice")
    }

    @Test("events stored with a commit wait in the outbox until someone delivers them")
    func storedWithTheTransaction() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        // Write an event the way an action's transaction does, without delivering it,
        // as if the process stopped right after the commit.
        try harness.kernel.store.write { db in
            let enabled = try ModuleSwitchRecords.enabled(for: harness.school.id, registry: harness.kernel.registry, in: db)
            try EventOutbox.store([try PendingEvent(NoteAdded(noteID: "n1", title: "After crash"))], source: "notes.add",
                                  school: harness.school.id, enabled: enabled, registry: harness.kernel.registry, at: Date(), in: db)
        }
        #expect(try harness.run(ListDigest.self, .init(), as: .admin).isEmpty)
        #expect(harness.kernel.deliverPendingEvents().delivered == 1)
        #expect(try harness.run(ListDigest.self, .init(), as: .admin) == ["After crash"])
    }

    @Test("delivered by four threads of each of two servers at once, every event reaches its handler exactly once")
    func deliveredOnceUnderRacingDeliverers() async throws {
        let harness = try TestHarness(modules: [NotesModule(), SlowDigestModule()])
        let titles = (0..<40).map { "Note \($0)" }
        try harness.kernel.store.write { db in
            let enabled = try ModuleSwitchRecords.enabled(for: harness.school.id, registry: harness.kernel.registry, in: db)
            try EventOutbox.store(try titles.enumerated().map { try PendingEvent(NoteAdded(noteID: "n\($0.offset)", title: $0.element)) },
                                  source: "notes.add", school: harness.school.id, enabled: enabled, registry: harness.kernel.registry, at: Date(), in: db)
        }
        let other = try Kernel(databasePath: harness.databasePath, modules: [NotesModule(), SlowDigestModule()], language: .en)
        let kernels = [harness.kernel, other]
        let delivered = await withTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                let kernel = kernels[index % 2]
                group.addTask { kernel.deliverPendingEvents().delivered }
            }
            return await group.reduce(0, +)
        }
        let copies = try harness.kernel.store.read { try $0.fetchValues(String.self, sql: "SELECT title FROM slow_digest_entries") }
        #expect(copies.sorted() == titles.sorted(), "each note copied once: \(copies.count) copies of \(titles.count)")
        #expect(delivered == titles.count, "the deliverers report each delivery once between them")
        let attempts = try harness.kernel.store.read { try $0.fetchValues(Int.self, sql: "SELECT attempts FROM kernel_event_deliveries") }
        #expect(attempts.count == titles.count && attempts.allSatisfy { $0 == 1 })
    }
}

/// A digest whose handler takes a moment, as real ones do (a notification per guardian): long
/// enough that two deliverers that both believed a delivery pending would both run it.
struct SlowDigestModule: AppModule {
    let id: ModuleID = "slow-digest"
    let version = SemanticVersion(1, 0, 0)
    var dependencies: [ModuleDependency] { [ModuleDependency("notes", "^1.0.0")] }
    var migrations: [Migration] {
        [Migration("001-entries", sql: "CREATE TABLE slow_digest_entries (school_id TEXT NOT NULL, title TEXT NOT NULL);")]
    }
    var eventHandlers: [EventHandler] {
        [
            EventHandler("slow-digest.copy-note", on: NoteAdded.self) { event, context in
                try context.database.insert(into: "slow_digest_entries", ["title": .text(event.title)])
                Thread.sleep(forTimeInterval: 0.02)
            },
        ]
    }
    var strings: StringCatalog { StringCatalog(ar: ["slow-digest.module.name": "ملخص"], en: ["slow-digest.module.name": "Slow digest"]) }
}
