import HogwartsBase

/// Who may do what, in one place: the door every action passes (the schema applied, the school,
/// the module switched on for it, the principal's grant), used by `run`, by `admits` and by the
/// kernel's own settings and switches. The API answers a route of a module switched off before
/// reading its body (`ModuleSwitchCache`, HogwartsHTTP), from the same switches.
extension Kernel {
    /// Whether `principal` may run `action` in the school, and how far the grant reaches: the
    /// same checks, in the same order, as `run` makes before an action's validation. For callers
    /// that show what a person may do (a console, an API's capabilities) and for the generated
    /// test that walks every action, role and school.
    public func admits(_ action: any Action.Type, as principal: Principal, in schoolReference: String) throws -> AccessScope {
        guard let owner = registry.owner(ofAction: action.id) else { throw KernelError.actionNotRegistered(action.id) }
        return try store.read { db in
            try gate(permission: action.permission, owner: owner, principal: principal, schoolReference: schoolReference, db: db).scope
        }
    }

    /// Schema, school, module switch, then permission: the door every action passes.
    func gate(permission: Permission, owner: ModuleID, principal: Principal, schoolReference: String, db: any StorageConnection)
        throws -> (school: School, enabled: Set<ModuleID>, scope: AccessScope) {
        try requireMigrated(db)
        let school = try SchoolRecords.find(schoolReference, in: db)
        let enabled = try ModuleSwitchRecords.enabled(for: school.id, registry: registry, in: db)
        guard enabled.contains(owner) else {
            throw KernelError.moduleDisabled(module: owner, school: school.slug)
        }
        return (school, enabled, try authorize(principal, permission, in: school, db: db))
    }

    /// Throws `permissionDenied` (and audits the refusal) unless the principal holds the
    /// permission in this school; returns how far the grant reaches.
    @discardableResult
    func authorize(_ principal: Principal, _ permission: Permission, in school: School, db: any StorageConnection) throws -> AccessScope {
        if let home = principal.schoolID, home != school.id {
            throw KernelError.outsideSchool(school: school.slug)
        }
        guard let scope = registry.policy.scope(of: principal.role, for: permission) else {
            logger.notice("denied", metadata: ["permission": "\(permission)", "role": "\(principal.role.rawValue)", "school": "\(school.slug)"])
            throw KernelError.permissionDenied(permission: permission.id, role: principal.role)
        }
        return scope
    }

    /// Records a refusal in the audit log in its own small transaction: the refused work wrote nothing.
    func auditDenial(_ principal: Principal, action: String, school: School, error: KernelError) {
        do {
            try store.write { db in
                try AuditRecords.append(school: school.id, principal: principal, action: action, outcome: .denied, detail: localizer.message(for: error), at: now(), in: db)
            }
        } catch {
            logger.error("could not audit a denial", metadata: ["error": "\(error)"])
        }
    }
}
