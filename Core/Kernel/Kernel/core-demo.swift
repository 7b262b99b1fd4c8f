import Foundation
import HogwartsBase

/// How big a demo school is: the main one, or the smaller second school that shows school
/// choice at sign-in and isolation between schools.
public enum DemoSize: String, Sendable, CaseIterable {
    case full
    case small
}

extension Kernel {
    /// The demo schools' time zone: their "today", and so what a teacher may still mark there.
    public static let demoTimeZone = "Africa/Khartoum"

    /// The demo schools' slugs and names.
    static let demoSchools: [(slug: String, size: DemoSize, nameKey: String)] = [
        ("demo", .full, "kernel.demo.school-name"),
        ("nile", .small, "kernel.demo.small-school-name"),
    ]

    /// Creates the demo schools and lets every enabled module seed them, dependencies first,
    /// all in one transaction: a half-seeded demo is never left behind.
    @discardableResult
    public func createDemoSchools(progress: ProgressReporter? = nil) throws -> [School] {
        let schools = try store.write { db in
            try Self.demoSchools.map { slug, size, nameKey in
                let school = try insertSchool(
                    NewSchool(slug: slug, name: LocalizedText(key: nameKey, catalog: registry.catalog), timeZone: Self.demoTimeZone, language: .ar),
                    by: .localOperator, db: db)
                let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
                let seeding = registry.modules.filter { enabled.contains($0.id) }
                for (index, module) in seeding.enumerated() {
                    progress?(index, seeding.count, "\(slug): \(module.id)")
                    let context = try operatorContext(in: school, db: db)
                    context.database.enter(module.id, registry.ownership)
                    context.demoIDs = DemoRandom(seed: UInt64(index + 1) &* (size == .full ? 1_000_003 : 2_000_003))
                    try module.seedDemo(context, size: size)
                    try EventOutbox.store(from: context, source: "\(module.id).seed-demo", registry: registry, in: db)
                }
                // Demo schools are for trying devices: they record changes from here on. Not while
                // seeding: a device's first request is a snapshot of all of it, and a change row per
                // seeded row per scope was three quarters of the demo database.
                try SyncActivation.activate(school.id, in: db)
                return school
            }
        }
        progress?(1, 1, "")
        deliverPendingEvents()
        return schools
    }
}

/// A small deterministic random generator (SplitMix64) for demo data: the same seed gives the
/// same school every time, ids included.
public struct DemoRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A UUID-shaped id drawn from this generator.
    public mutating func id() -> String {
        let high = next()
        let low = next()
        let hex = String(format: "%016llx%016llx", high, low)
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }
}
