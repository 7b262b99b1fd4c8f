import Core
import HogwartsTestSupport
import Testing

/// Walks every action of every built-in module (the host's own generated list, so the next
/// module is walked without touching this file) as every role, in its own school, from another
/// school, and where the module is off, and checks each answer against the documented matrix.
@Suite("Every action, every role, both schools", .waitsOnProcesses)
struct ActionMatrixTests {
    /// The permission matrix as the README documents it (seed 003 §4, issue 3 for the roster):
    /// permission -> role -> how far the grant reaches. A role missing from a row is refused.
    /// A new permission fails the first test until its row is written here, so a grant is always
    /// a decision someone wrote down, never a default nobody looked at.
    static let documented: [String: [Role: AccessScope]] = [
        "announcements.post": [.developer: .school, .admin: .school, .teacher: .ownClasses],
        "announcements.read": [.developer: .school, .admin: .school, .teacher: .ownClasses, .staff: .ownRecord, .accountant: .ownRecord,
                               .student: .ownRecord, .guardian: .linkedChildren],
        "attendance.check-in": [.student: .ownRecord],
        "attendance.excuse.review": [.developer: .school, .admin: .school, .teacher: .ownClasses],
        "attendance.excuse.submit": [.developer: .school, .admin: .school, .guardian: .linkedChildren],
        "attendance.mark": [.developer: .school, .admin: .school, .teacher: .ownClasses],
        "attendance.read": [.developer: .school, .admin: .school, .teacher: .ownClasses, .student: .ownRecord, .guardian: .linkedChildren, .staff: .school],
        "attendance.stats": [.developer: .school, .admin: .school, .teacher: .ownClasses, .staff: .school],
        "auth.profile": Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, .ownRecord) }),
        "auth.sign-in": Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, .ownRecord) }),
        "auth.users.manage": [.developer: .school, .admin: .school],
        "auth.users.read": [.developer: .school, .admin: .school],
        "events.manage": [.developer: .school, .admin: .school, .teacher: .ownClasses],
        "events.read": [.developer: .school, .admin: .school, .teacher: .ownClasses, .staff: .ownRecord, .accountant: .ownRecord,
                        .student: .ownRecord, .guardian: .linkedChildren],
        "fees.manage": [.developer: .school, .admin: .school, .accountant: .school],
        "fees.read": [.developer: .school, .admin: .school, .accountant: .school, .student: .ownRecord, .guardian: .linkedChildren],
        "grades.enter": [.developer: .school, .admin: .school, .teacher: .ownClasses],
        "grades.manage": [.developer: .school, .admin: .school],
        "grades.read": [.developer: .school, .admin: .school, .teacher: .ownClasses, .student: .ownRecord, .guardian: .linkedChildren],
        "id-cards.own": [.developer: .ownRecord, .admin: .ownRecord, .teacher: .ownRecord, .staff: .ownRecord, .accountant: .ownRecord,
                         .student: .ownRecord],
        "id-cards.verify": [.developer: .school, .admin: .school, .teacher: .school, .staff: .school],
        "kernel.modules.manage": [.developer: .school, .admin: .school],
        "kernel.settings.manage": [.developer: .school, .admin: .school],
        "messages.start": [.developer: .ownRecord, .admin: .ownRecord, .teacher: .ownRecord, .student: .ownRecord, .guardian: .ownRecord, .staff: .ownRecord],
        "messages.stats": [.developer: .school, .admin: .school],
        "messages.use": [.developer: .ownRecord, .admin: .ownRecord, .teacher: .ownRecord, .student: .ownRecord, .guardian: .ownRecord,
                         .accountant: .ownRecord, .staff: .ownRecord],
        "notifications.outbox": [.developer: .school, .admin: .school],
        "oneroster.export": [.developer: .school, .admin: .school],
        "oneroster.import": [.developer: .school, .admin: .school],
        "oneroster.set-password": Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, .ownRecord) }),
        "notifications.own": [.developer: .ownRecord, .admin: .ownRecord, .teacher: .ownRecord, .student: .ownRecord, .guardian: .ownRecord,
                              .accountant: .ownRecord, .staff: .ownRecord],
        "students.manage": [.developer: .school, .admin: .school],
        "students.read": [.developer: .school, .admin: .school, .teacher: .ownClasses, .student: .ownRecord, .guardian: .linkedChildren, .staff: .school],
        "students.roster.manage": [.developer: .school, .admin: .school],
        "students.roster.read": [.developer: .school, .admin: .school, .teacher: .school, .student: .school, .guardian: .school,
                                 .accountant: .school, .staff: .school],
        "timetable.manage": [.developer: .school, .admin: .school],
        "timetable.read": [.developer: .school, .admin: .school, .teacher: .school, .student: .ownRecord, .guardian: .linkedChildren,
                           .accountant: .school, .staff: .school],
    ]

    static let actions: [(module: ModuleID, action: any Action.Type)] = builtInModules.flatMap { module in
        module.actions.map { (module.id, $0) }
    }

    @Test("the grants in force are the documented matrix, permission by permission")
    func grantsAreDocumented() throws {
        let policy = try ModuleRegistry(builtInModules).policy
        for permission in policy.permissions {
            let granted = Dictionary(uniqueKeysWithValues: Role.allCases.compactMap { role in policy.scope(of: role, for: permission).map { (role, $0) } })
            #expect(Self.documented[permission.id] == granted, "\(permission.id): write its row in the documented matrix, or change its grants")
        }
        #expect(Set(Self.documented.keys) == Set(policy.permissions.map(\.id)), "the matrix names only permissions that exist")
    }

    @Test("each action admits exactly the roles its permission grants, in its own school only, and none where its module is off",
          arguments: Role.allCases)
    func everyAction(role: Role) throws {
        let harness = try TestHarness(modules: builtInModules)
        let other = try harness.makeSchool("other-school")
        let switchedOff = try harness.makeSchool("switched-off")
        for module in builtInModules.map(\.id) where try harness.kernel.enabledModules(for: switchedOff.id).contains(module) {
            _ = try harness.kernel.disable(module, for: switchedOff.id, cascade: true, by: .localOperator)
        }
        #expect(Self.actions.count > 50, "the walk found every module's actions (\(Self.actions.count))")

        for (module, action) in Self.actions {
            let expected = Self.documented[action.permission.id]?[role]
            let name = "\(action.id) as \(role.rawValue)"
            do {
                let scope = try harness.kernel.admits(action, as: harness.user(role), in: harness.school.id)
                #expect(scope == expected, "\(name) in its own school reaches \(scope), documented \(String(describing: expected))")
            } catch KernelError.permissionDenied(let permission, _) {
                #expect(expected == nil, "\(name) was refused \(permission), documented \(String(describing: expected))")
            }
            #expect(throws: KernelError.outsideSchool(school: harness.school.slug), "\(name) from another school") {
                try harness.kernel.admits(action, as: harness.user(role, in: other), in: harness.school.id)
            }
            #expect(throws: KernelError.moduleDisabled(module: module, school: switchedOff.slug), "\(name) where \(module) is off") {
                try harness.kernel.admits(action, as: harness.user(role, in: switchedOff), in: switchedOff.id)
            }
        }
    }
}
