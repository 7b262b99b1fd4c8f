@testable import Core
import Testing

@Suite("Localization")
struct LocalizationTests {
    @Test("every kernel string exists in Arabic and English")
    func coreCatalogComplete() {
        let catalog = CoreResources.catalog
        #expect(catalog.keys.count > 50, "the catalog loaded from Core's resources")
        #expect(catalog.missingTranslations.isEmpty)
    }

    static let everyKernelError: [KernelError] = [
        .invalidVersionRange("x"), .invalidModuleID("X"), .duplicateModule("a"), .dependencyCycle(["a", "b", "a"]),
        .missingDependency(module: "a", version: SemanticVersion(1, 0, 0), dependency: "b", range: "^1.0.0"),
        .unsatisfiedDependency(module: "a", version: SemanticVersion(1, 0, 0), dependency: "b", range: "^2.0.0", found: SemanticVersion(1, 0, 0)),
        .invalidDependencyRange(module: "a", dependency: "b", range: "?"), .unknownModule("a"), .unknownEvent(handler: "a.h", event: "b.e"),
        .duplicateDeclaration(kind: "action", name: "a.x"), .migrationChanged(module: "a", migration: "001"),
        .migrationFailed(module: "a", migration: "001", reason: "r"), .tableWithoutSchool(module: "a", table: "t"), .pendingMigrations(2),
        .unknownSchool("s"), .schoolExists("s"), .invalidSlug("S"), .invalidTimeZone("Mars/Base"),
        .enableNeedsDependencies(module: "a", missing: ["b"]), .disableHasDependents(module: "a", dependents: ["b"]),
        .moduleDisabled(module: "a", school: "s"), .permissionDenied(permission: "a.p", role: .student), .outsideSchool(school: "s"),
        .actionNotRegistered("a.x"), .requestIDReused(requestID: "r", action: "a.x"), .unscopedStatement("SELECT 1"),
        .unknownSetting("a.k"), .invalidSetting(key: "a.k", value: "v", reason: "1-2"), .notAHogwartsDatabase("/f"),
        .newerDatabase(path: "/f", found: "9.0.0", supported: "0.1.0"), .fileExists("/f"), .fileMissing("/f"), .storage("disk full"),
        .backupNeedsServerTools(database: "postgres://h/db"), .databaseMissing("/f"), .backupFolderMissing("/f"),
        .configurationRefused(["HOGWARTS_PORT"]),
    ]

    @Test("every kernel error reads as a sentence in both languages, with its details filled in", arguments: Language.allCases)
    func errorsAreLocalized(language: Language) {
        let localizer = Localizer(language: language, catalog: CoreResources.catalog)
        for error in Self.everyKernelError {
            let message = localizer.message(for: error)
            #expect(message != error.messageKey, "missing \(error.messageKey) in \(language)")
            #expect(!message.contains("{"), "unfilled placeholder in \(error.messageKey) (\(language)): \(message)")
        }
        let cycle = localizer.message(for: KernelError.dependencyCycle(["a", "b", "a"]))
        #expect(cycle.contains("a -> b -> a"))
    }

    @Test("the language comes from --lang, then HOGWARTS_LANG, and is Arabic by default")
    func languageResolution() {
        #expect(Language.resolve(arguments: ["modules", "list"], environment: [:]) == .ar)
        #expect(Language.resolve(arguments: [], environment: ["HOGWARTS_LANG": "en"]) == .en)
        #expect(Language.resolve(arguments: ["--lang", "ar"], environment: ["HOGWARTS_LANG": "en"]) == .ar)
        #expect(Language.resolve(arguments: ["--lang=en"], environment: [:]) == .en)
        #expect(Language.ar.isRightToLeft && !Language.en.isRightToLeft)
    }

    @Test("a catalog reports keys missing in one language")
    func missingTranslationsAreFound() {
        let catalog = StringCatalog(ar: ["a.one": "واحد"], en: ["a.one": "one", "a.two": "two"])
        #expect(catalog.missingTranslations == ["a.two [ar]"])
    }
}
