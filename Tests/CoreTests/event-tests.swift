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
}
