import Foundation
import HogwartsBase

extension Kernel {
    /// Opens a new school with its default set of modules switched on, in one transaction.
    /// Only the local operator (or a developer) may do this: the school does not exist yet.
    /// `bootstrap` runs in the same transaction as the operator, with the new school's context
    /// (Auth uses it to add the first administrator): if it throws, no school is created.
    @discardableResult
    public func createSchool(_ new: NewSchool, by principal: Principal = .localOperator, bootstrap: ((ActionContext) throws -> Void)? = nil) throws -> School {
        let school = try store.write { db in
            let school = try insertSchool(new, by: principal, db: db)
            if let bootstrap {
                let context = try operatorContext(in: school, db: db)
                try bootstrap(context)
                try EventOutbox.store(from: context, source: "kernel.school.create", registry: registry, in: db)
            }
            return school
        }
        deliverPendingEvents()
        return school
    }

    /// A context for the local operator's own work inside a school (creation, demo data).
    func operatorContext(in school: School, db: any StorageConnection) throws -> ActionContext {
        ActionContext(
            principal: .localOperator, school: school, scope: .school,
            database: SchoolDatabase(schoolID: school.id, connection: db),
            localizer: Localizer(language: school.language, catalog: registry.catalog), now: now(),
            settings: SettingsReader(connection: db, databaseFolder: databaseFolder), policy: registry.policy, enabledModules: try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db))
    }

    /// Checks and inserts a school with its module switches inside the caller's transaction.
    func insertSchool(_ new: NewSchool, by principal: Principal, db: any StorageConnection) throws -> School {
        guard new.slug.range(of: "^[a-z0-9][a-z0-9-]{1,62}$", options: .regularExpression) != nil else {
            throw KernelError.invalidSlug(new.slug)
        }
        guard TimeZone(identifier: new.timeZone) != nil else { throw KernelError.invalidTimeZone(new.timeZone) }
        try TextInput.check(new.name.ar, field: "name_ar", maxLength: TextLimit.title)
        try TextInput.check(new.name.en, field: "name_en", maxLength: TextLimit.title)
        guard principal.role == .developer else {
            throw KernelError.permissionDenied(permission: "kernel.schools.create", role: principal.role)
        }
        let enabled = try defaultModules(requested: new.enabledModules)
        let school = School(id: UUID().uuidString.lowercased(), slug: new.slug, name: new.name, timeZone: new.timeZone, language: new.language, createdAt: now())
        try requireMigrated(db)
        if try db.fetchOne(sql: "SELECT 1 FROM schools WHERE slug = ?", arguments: [new.slug]) != nil {
            throw KernelError.schoolExists(new.slug)
        }
        try db.execute(sql: """
            INSERT INTO schools (id, slug, name_ar, name_en, time_zone, language, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [school.id, school.slug, school.name.ar, school.name.en, school.timeZone, school.language.rawValue, school.createdAt])
        for module in registry.modules {
            try ModuleSwitchRecords.set(module.id, enabled: enabled.contains(module.id), school: school.id, by: principal, at: school.createdAt, in: db)
        }
        try AuditRecords.append(school: school.id, principal: principal, action: "kernel.school.create", outcome: .succeeded, detail: school.slug, at: school.createdAt, in: db)
        return school
    }

    /// Every school in this database, by slug.
    public func schools() throws -> [School] {
        try store.read { db in
            try requireMigrated(db)
            return try SchoolRecords.all(in: db)
        }
    }

    /// The school with this slug or id; `unknownSchool` names what was asked for.
    public func school(_ reference: String) throws -> School {
        try store.read { db in
            try requireMigrated(db)
            return try SchoolRecords.find(reference, in: db)
        }
    }

    /// Checks a requested module list: every id known and every dependency included.
    private func defaultModules(requested: [ModuleID]?) throws -> Set<ModuleID> {
        guard let requested else {
            return Set(registry.modules.filter(\.enabledByDefault).map(\.id))
        }
        let chosen = Set(requested)
        for id in requested {
            let missing = registry.dependencyClosure(of: try registry.module(id).id).filter { !chosen.contains($0) }
            guard missing.isEmpty else { throw KernelError.enableNeedsDependencies(module: id, missing: missing) }
        }
        return chosen
    }
}
