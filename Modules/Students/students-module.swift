import Core
public struct StudentsModule: AppModule { public init() {}; public let id: ModuleID = "students"; public let version = SemanticVersion(1, 0, 0); public var dependencies: [ModuleDependency] { [ModuleDependency("auth", "^1.0.0")] }; public var strings: StringCatalog { StringCatalog(ar: [:], en: [:]) } }
