import Core
import Foundation

/// A fresh database for one test: migrated to exactly the given modules (the module under
/// test and its dependency closure), with one school and a user of each role in it.
///
/// Each harness has its own temporary directory, removed when the harness goes away, so tests
/// run in parallel without sharing state.
public final class TestHarness: @unchecked Sendable {
    public let kernel: Kernel
    public let school: School
    public let directory: URL
    /// The database file, or with `HOGWARTS_TEST_DATABASE=postgres://...` this test's own schema on that server.
    public let databasePath: String

    /// - Parameter modules: every module to install. A missing dependency fails here, naming it,
    ///   so a module's tests state their dependency closure explicitly.
    public convenience init(modules: [any AppModule], clock: @escaping @Sendable () -> Date = { Date() }) throws {
        try self.init(modules: modules, clock: clock, copying: nil)
    }

    /// - Parameter template: a database made by a harness of the same modules (`DemoTemplate`),
    ///   copied as this test's database instead of starting empty.
    init(modules: [any AppModule], clock: @escaping @Sendable () -> Date, copying template: String?) throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "hogwarts-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databasePath = try TestDatabase.fresh(in: directory)
        if let template { try TestDatabase.copy(template, into: databasePath, modules: modules, clock: clock) }
        kernel = try Kernel(databasePath: databasePath, modules: modules, language: .en, clock: clock)
        try kernel.migrate()
        if template != nil {
            school = try kernel.school(Self.schoolSlug)
        } else {
            school = try kernel.createSchool(NewSchool(slug: Self.schoolSlug, name: LocalizedText(ar: "مدرسة الاختبار", en: "Test School")))
            // A test's schools record changes for devices from the start, as a school with devices does.
            try kernel.activateSync(school.id, schoolIsNew: true)
        }
    }

    static let schoolSlug = "test-school"

    deinit {
        TestDatabase.drop(databasePath)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A signed-in user of `role` in the harness's school (or in `school`).
    public func user(_ role: Role, in school: School? = nil) -> Principal {
        let school = school ?? self.school
        return Principal(userID: "\(role.rawValue.lowercased())@\(school.slug)", role: role, schoolID: school.id, displayName: "Test \(role.rawValue.lowercased())")
    }

    /// Opens a second school in the same database, for tenancy tests.
    public func makeSchool(_ slug: String) throws -> School {
        let school = try kernel.createSchool(NewSchool(slug: slug, name: LocalizedText(ar: slug, en: slug)))
        try kernel.activateSync(school.id, schoolIsNew: true)
        return school
    }

    /// Runs an action as `role` in the harness's school.
    @discardableResult
    public func run<A: Action>(_ action: A.Type, _ input: A.Input, as role: Role, requestID: String? = nil) throws -> A.Output {
        try kernel.run(action, input, as: user(role), in: school.id, requestID: requestID)
    }
}
