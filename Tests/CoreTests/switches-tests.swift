import Core
import HogwartsTestSupport
import Testing

@Suite("Per-school module switches")
struct SwitchesTests {
    @Test("a new school gets every module on; a chosen set is honoured and checked")
    func defaults() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        #expect(try harness.kernel.enabledModules(for: harness.school.id) == ["notes", "digest"])

        let partial = try harness.kernel.createSchool(NewSchool(slug: "notes-only", name: LocalizedText(ar: "م", en: "N"), enabledModules: ["notes"]))
        #expect(try harness.kernel.enabledModules(for: partial.id) == ["notes"])
        #expect(throws: KernelError.enableNeedsDependencies(module: "digest", missing: ["notes"])) {
            try harness.kernel.createSchool(NewSchool(slug: "broken", name: LocalizedText(ar: "م", en: "B"), enabledModules: ["digest"]))
        }
        #expect(throws: KernelError.unknownSchool("broken")) { try harness.kernel.school("broken") }
    }

    @Test("enabling needs the dependencies on, and the error names the missing ones")
    func enableNeedsDependencies() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        let operatorUser = Principal.localOperator
        try harness.kernel.disable("notes", for: harness.school.id, cascade: true, by: operatorUser)
        #expect(throws: KernelError.enableNeedsDependencies(module: "digest", missing: ["notes"])) {
            try harness.kernel.enable("digest", for: harness.school.id, by: operatorUser)
        }
        try harness.kernel.enable("notes", for: harness.school.id, by: operatorUser)
        try harness.kernel.enable("digest", for: harness.school.id, by: operatorUser)
        #expect(try harness.kernel.enabledModules(for: harness.school.id) == ["notes", "digest"])
    }

    @Test("disabling a module others depend on is refused unless cascading, which reports what it switched off")
    func disableCascade() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        #expect(throws: KernelError.disableHasDependents(module: "notes", dependents: ["digest"])) {
            try harness.kernel.disable("notes", for: harness.school.id, by: harness.user(.admin))
        }
        #expect(try harness.kernel.enabledModules(for: harness.school.id) == ["notes", "digest"], "a refused disable changes nothing")
        let switchedOff = try harness.kernel.disable("notes", for: harness.school.id, cascade: true, by: harness.user(.admin))
        #expect(switchedOff == ["digest", "notes"])
        #expect(try harness.kernel.enabledModules(for: harness.school.id).isEmpty)
    }

    @Test("a disabled module fails for that school only, and its data comes back when enabled again")
    func disabledModuleKeepsData() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        let other = try harness.makeSchool("other-school")
        try harness.run(AddNote.self, .init(title: "Trip form"), as: .admin)
        try harness.kernel.disable("digest", for: harness.school.id, by: harness.user(.admin))

        #expect(throws: KernelError.moduleDisabled(module: "digest", school: "test-school")) {
            try harness.run(ListDigest.self, .init(), as: .admin)
        }
        #expect(try harness.kernel.run(ListDigest.self, .init(), as: harness.user(.admin, in: other), in: other.id).isEmpty, "other schools keep using it")

        try harness.run(AddNote.self, .init(title: "While off"), as: .admin)
        try harness.kernel.enable("digest", for: harness.school.id, by: harness.user(.admin))
        #expect(try harness.run(ListDigest.self, .init(), as: .admin) == ["Trip form"], "kept rows return; no handler ran while it was off")
    }

    @Test("only administrators switch modules, and unknown names are errors")
    func switchingNeedsPermission() throws {
        let harness = try TestHarness(modules: [NotesModule(), DigestModule()])
        #expect(throws: KernelError.permissionDenied(permission: "kernel.modules.manage", role: .teacher)) {
            try harness.kernel.disable("digest", for: harness.school.id, by: harness.user(.teacher))
        }
        #expect(throws: KernelError.unknownModule("library")) {
            try harness.kernel.enable("library", for: harness.school.id, by: harness.user(.admin))
        }
        #expect(throws: KernelError.unknownSchool("nowhere")) {
            try harness.kernel.enable("digest", for: "nowhere", by: harness.user(.admin))
        }
        #expect(try harness.kernel.enabledModules(for: harness.school.id) == ["notes", "digest"])
    }
}
