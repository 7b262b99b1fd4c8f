import Core
import HogwartsTestSupport
import Testing

@Suite("Per-school settings")
struct SettingsTests {
    @Test("a setting has its default until set, then the school's value governs its actions")
    func typedSetting() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        let other = try harness.makeSchool("other-school")
        #expect(try harness.kernel.settings(for: harness.school.id).map(\.value) == ["40"])

        try harness.kernel.setSetting("notes.max-length", to: "5", for: harness.school.id, by: harness.user(.admin))
        let state = try #require(try harness.kernel.settings(for: harness.school.id).first)
        #expect(state.value == "5" && !state.isDefault)
        #expect(throws: InputError("notes.error.too-long", ["max": "5"])) {
            try harness.run(AddNote.self, .init(title: "Too long"), as: .admin)
        }
        try harness.kernel.run(AddNote.self, .init(title: "Fine elsewhere"), as: harness.user(.admin, in: other), in: other.id)
    }

    @Test("an invalid value is refused with what is allowed, and nothing changes")
    func validation() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        #expect(throws: KernelError.invalidSetting(key: "notes.max-length", value: "0", reason: "1-500")) {
            try harness.kernel.setSetting("notes.max-length", to: "0", for: harness.school.id, by: harness.user(.admin))
        }
        #expect(throws: KernelError.invalidSetting(key: "notes.max-length", value: "many", reason: "1-500")) {
            try harness.kernel.setSetting("notes.max-length", to: "many", for: harness.school.id, by: harness.user(.admin))
        }
        #expect(throws: KernelError.unknownSetting("notes.colour")) {
            try harness.kernel.setSetting("notes.colour", to: "red", for: harness.school.id, by: harness.user(.admin))
        }
        #expect(throws: KernelError.permissionDenied(permission: "kernel.settings.manage", role: .teacher)) {
            try harness.kernel.setSetting("notes.max-length", to: "10", for: harness.school.id, by: harness.user(.teacher))
        }
        #expect(try harness.kernel.settings(for: harness.school.id).first?.isDefault == true)
    }

    @Test("flags and choices parse the way an admin types them")
    func settingKinds() {
        let flag = Setting<Bool>.flag("demo", "enabled", default: false).definition
        let choice = Setting<String>.choice("demo", "mode", default: "calendar", from: ["calendar", "school-weeks"]).definition
        #expect(flag.defaultText == "false")
        #expect(choice.expected == "calendar|school-weeks")
    }
}
