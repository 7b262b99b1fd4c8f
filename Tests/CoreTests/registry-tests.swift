import Core
import Testing

@Suite("Module registry")
struct RegistryTests {
    @Test("modules come out dependencies first")
    func dependencyOrder() throws {
        let registry = try ModuleRegistry([
            GraphModule("grades", "1.0.0", [ModuleDependency("students", "^1.0.0")]),
            GraphModule("students", "1.1.0", [ModuleDependency("auth", ">=1.0.0 <2.0.0")]),
            GraphModule("auth", "1.4.2"),
        ])
        #expect(registry.modules.map(\.id) == ["auth", "students", "grades"])
        #expect(registry.dependencyClosure(of: "grades") == ["auth", "students", "grades"])
        #expect(registry.dependents(of: "auth") == ["students", "grades"])
    }

    @Test("a cycle is reported with its path")
    func cycle() {
        #expect(throws: KernelError.dependencyCycle(["a", "b", "a"])) {
            try ModuleRegistry([GraphModule("a", "1.0.0", [ModuleDependency("b")]), GraphModule("b", "1.0.0", [ModuleDependency("a")])])
        }
        #expect(throws: KernelError.dependencyCycle(["a", "b", "c", "a"])) {
            try ModuleRegistry([
                GraphModule("a", "1.0.0", [ModuleDependency("b")]),
                GraphModule("b", "1.0.0", [ModuleDependency("c")]),
                GraphModule("c", "1.0.0", [ModuleDependency("a")]),
            ])
        }
    }

    @Test("a missing dependency names both modules and versions")
    func missing() {
        #expect(throws: KernelError.missingDependency(module: "grades", version: SemanticVersion(2, 0, 0), dependency: "students", range: "^1.0.0")) {
            try ModuleRegistry([GraphModule("grades", "2.0.0", [ModuleDependency("students", "^1.0.0")])])
        }
    }

    @Test("an unsatisfied version range names what was wanted and what was found")
    func unsatisfied() {
        let expected = KernelError.unsatisfiedDependency(
            module: "grades", version: SemanticVersion(1, 0, 0), dependency: "students", range: "^2.0.0", found: SemanticVersion(1, 9, 3))
        #expect(throws: expected) {
            try ModuleRegistry([GraphModule("grades", "1.0.0", [ModuleDependency("students", "^2.0.0")]), GraphModule("students", "1.9.3")])
        }
    }

    @Test("malformed ranges, duplicate ids and bad ids are refused")
    func badDeclarations() {
        #expect(throws: KernelError.invalidDependencyRange(module: "grades", dependency: "students", range: "~>banana")) {
            try ModuleRegistry([GraphModule("grades", "1.0.0", [ModuleDependency("students", "~>banana")]), GraphModule("students")])
        }
        #expect(throws: KernelError.duplicateModule("auth")) { try ModuleRegistry([GraphModule("auth"), GraphModule("auth")]) }
        #expect(throws: KernelError.invalidModuleID("Auth Module")) { try ModuleRegistry([GraphModule("Auth Module")]) }
        #expect(throws: KernelError.invalidModuleID("kernel")) { try ModuleRegistry([GraphModule("kernel")]) }
    }

    @Test("a handler for an event no installed module publishes is refused")
    func unknownEvent() {
        struct Listener: AppModule {
            let id: ModuleID = "listener"
            let version = SemanticVersion(1, 0, 0)
            var eventHandlers: [EventHandler] { [EventHandler("listener.on-note", on: NoteAdded.self) { _, _ in }] }
            var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) }
        }
        #expect(throws: KernelError.unknownEvent(handler: "listener.on-note", event: "notes.note-added")) {
            try ModuleRegistry([Listener()])
        }
    }

    @Test("version ranges", arguments: [
        ("^1.2.0", "1.2.0", true), ("^1.2.0", "1.9.9", true), ("^1.2.0", "2.0.0", false), ("^1.2.0", "1.1.9", false),
        ("^0.3.0", "0.3.5", true), ("^0.3.0", "0.4.0", false),
        ("~1.2.0", "1.2.9", true), ("~1.2.0", "1.3.0", false),
        (">=1.0.0 <2.0.0", "1.5.0", true), (">=1.0.0 <2.0.0", "2.0.0", false),
        ("1.4.2", "1.4.2", true), ("1.4.2", "1.4.3", false), ("*", "9.9.9", true), ("<=1.0", "1.0.0", true), (">1.0", "1.0.0", false),
    ])
    func ranges(range: String, version: String, contained: Bool) throws {
        let parsedVersion = try #require(SemanticVersion(parsing: version))
        #expect(try VersionRange(range).contains(parsedVersion) == contained)
    }

    @Test("malformed ranges are errors", arguments: ["", "^", "1.x", ">=1.0.0 <two", "1.2.3.4", "^-1.0.0"])
    func malformedRanges(text: String) {
        #expect(throws: KernelError.invalidVersionRange(text)) { try VersionRange(text) }
    }
}
