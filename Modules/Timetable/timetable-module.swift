import ArgumentParser
import Core
import Foundation

/// Timetable: periods, weekly slots and real Week A/B (or longer) cycles from the school calendar.
public struct TimetableModule: AppModule {
    public init() {}

    public let id: ModuleID = "timetable"
    public let version = SemanticVersion(1, 0, 0)
    public var iconName: String { "calendar" }
    public var dependencies: [ModuleDependency] { [ModuleDependency("students", "^1.0.0")] }
    public var strings: StringCatalog { Self.catalog }

    private static let catalog = StringCatalog.load(from: .module)
}
