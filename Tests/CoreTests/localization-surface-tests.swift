@testable import Core
import Testing

/// The web reads a key's `@web` wording first; the command line never does.
@Suite("Localization: the wording of each surface")
struct LocalizationSurfaceTests {
    let catalog = StringCatalog(
        ar: ["x.error.pick": "اختر بـ --student", "x.error.pick@web": "حدّد الطالب", "x.error.plain": "نص"],
        en: ["x.error.pick": "Choose with --student", "x.error.pick@web": "Name the student", "x.error.plain": "Text"])

    @Test("the web reads <key>@web, the command line the key itself; a key without a web wording is the same on both", arguments: Language.allCases)
    func surfaces(language: Language) {
        let web = Localizer(language: language, catalog: catalog, surface: .web)
        let commandLine = Localizer(language: language, catalog: catalog)
        #expect(!web("x.error.pick").contains("--") && commandLine("x.error.pick").contains("--student"))
        #expect(web("x.error.plain") == commandLine("x.error.plain"))
    }

    @Test("no kernel error read on the web names a flag or a command", arguments: Language.allCases)
    func kernelErrorsOnTheWeb(language: Language) {
        let web = Localizer(language: language, catalog: CoreResources.catalog, surface: .web)
        // Reachable from HTTP or the console; the rest are the operator's (backup, restore, demo, migrate).
        let reachable: [KernelError] = [.moduleDisabled(module: "a", school: "s"), .pendingMigrations(2), .unknownSchool("s"),
                                        .unknownModule("a"), .unknownSetting("a.k"), .disableHasDependents(module: "a", dependents: ["b"]),
                                        .settingPathOutside(key: "a.k", path: "/p", folder: "/f")]
        for error in reachable {
            let text = web.message(for: error)
            #expect(!text.contains("hogwarts ") && !text.contains("--"), "\(text)")
        }
    }
}
