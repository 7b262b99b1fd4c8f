extension Kernel {
    /// The demo school's slug.
    public static let demoSchoolSlug = "demo"

    /// Creates the `demo` school (if it is not there yet) and lets every enabled module seed
    /// it, dependencies first, all in one transaction: a half-seeded demo is never left behind.
    @discardableResult
    public func createDemoSchool(progress: ProgressReporter? = nil) throws -> School {
        if let existing = try schools().first(where: { $0.slug == Self.demoSchoolSlug }) {
            return existing
        }
        let school = try store.write { db in
            let school = try insertSchool(NewSchool(
                slug: Self.demoSchoolSlug,
                name: LocalizedText(key: "kernel.demo.school-name", catalog: registry.catalog),
                timeZone: "Africa/Khartoum", language: .ar), by: .localOperator, db: db)
            let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
            let seeding = registry.modules.filter { enabled.contains($0.id) }
            for (index, module) in seeding.enumerated() {
                progress?(index, seeding.count, module.id)
                let context = ActionContext(
                    principal: .localOperator, school: school, scope: .school,
                    database: SchoolDatabase(schoolID: school.id, connection: db),
                    localizer: Localizer(language: school.language, catalog: registry.catalog), now: now(),
                    settings: SettingsReader(connection: db))
                try module.seedDemo(context)
                try EventOutbox.store(context.publishedEvents, source: "\(module.id).seed-demo", school: school.id, registry: registry, at: context.now, in: db)
            }
            progress?(seeding.count, seeding.count, "")
            return school
        }
        deliverPendingEvents()
        return school
    }
}
