import Core
import Foundation
import Synchronization

/// The demo schools, seeded once per test process and module set, then copied for each test.
///
/// Seeding the demo (432 students, a term of attendance and grades) is most of a debug test's
/// time; a copy of the seeded file is a few milliseconds. On PostgreSQL the template is a schema
/// and each test's schema, migrated by the same modules, gets a copy of its rows (a second or so,
/// where seeding over the network is half a minute).
extension TestHarness {
    /// A harness whose database holds the demo schools as `Kernel.createDemoSchools` makes them,
    /// besides the harness's own school; the demo schools are returned in the demo's order.
    public static func withDemo(modules: [any AppModule], clock: @escaping @Sendable () -> Date = { Date() }) throws -> (TestHarness, [School]) {
        let template = try DemoTemplate.file(modules: modules, clock: clock)
        let harness = try TestHarness(modules: modules, clock: clock, copying: template)
        return (harness, try DemoTemplate.slugs.map { try harness.kernel.school($0) })
    }
}

enum DemoTemplate {
    static let slugs = ["demo", "nile"]
    /// Seeded files by module set and hour; seeding happens inside the lock, so parallel tests
    /// wanting the same set wait for one seeding instead of each doing their own.
    private static let files = Mutex<[String: String]>([:])
    /// On PostgreSQL the harnesses whose schemas are the templates, kept for the whole run.
    private static let seededSchemas = Mutex<[TestHarness]>([])
    private static let folder = FileManager.default.temporaryDirectory.appending(path: "hogwarts-demo-templates")

    /// The seeded file (on PostgreSQL, schema) for these modules at this minute of the clock:
    /// the demo stamps rows with the clock's time (messages "from earlier today"), so a test with
    /// a fixed clock gets exactly its own demo, and one on the real clock a demo at most a minute old.
    static func file(modules: [any AppModule], clock: @escaping @Sendable () -> Date) throws -> String {
        let minute = Int(clock().timeIntervalSince1970 / 60)
        let key = modules.map(\.id).joined(separator: ",") + "@\(minute)"
        return try files.withLock { files in
            if let file = files[key] { return file }
            if files.isEmpty { removeStaleTemplates() }
            let seeded = try TestHarness(modules: modules, clock: clock, copying: nil)
            try seeded.kernel.createDemoSchools()
            if TestDatabase.isPostgres {
                seededSchemas.withLock { $0.append(seeded) }
                files[key] = seeded.databasePath
                return seeded.databasePath
            }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appending(path: "\(UUID().uuidString).sqlite").path
            try seeded.kernel.backup(to: file)
            files[key] = file
            return file
        }
    }

    /// Earlier test runs' templates (a run cannot remove its own at exit).
    private static func removeStaleTemplates() {
        let old = Date().addingTimeInterval(-6 * 3600)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names {
            let path = folder.appending(path: name).path
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
            if let modified, modified < old { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
