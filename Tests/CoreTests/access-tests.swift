import Core
import HogwartsTestSupport
import Testing

@Suite("Access control")
struct AccessTests {
    @Test("a denied action writes nothing and names the missing permission", arguments: [Role.student, .guardian, .accountant, .staff, .user])
    func denied(role: Role) throws {
        let harness = try TestHarness(modules: [NotesModule()])
        #expect(throws: KernelError.permissionDenied(permission: "notes.write", role: role)) {
            try harness.run(AddNote.self, .init(title: "Hello"), as: role)
        }
        #expect(try harness.run(ListNotes.self, .init(), as: .admin).isEmpty)
        let audit = try harness.kernel.auditLog(for: harness.school.id)
        #expect(audit.first?.outcome == .denied)
        #expect(audit.first?.action == "notes.add")
    }

    @Test("granted roles run it, each with the scope of its grant")
    func scopes() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        #expect(try harness.run(AddNote.self, .init(title: "A"), as: .admin).scope == .school)
        #expect(try harness.run(AddNote.self, .init(title: "B"), as: .teacher).scope == .ownClasses)
        #expect(try harness.run(AddNote.self, .init(title: "C"), as: .developer).scope == .school)
    }

    @Test("a student's read is narrowed to their own records by the scope")
    func ownRecordScope() throws {
        let harness = try TestHarness(modules: [NotesModule()])
        try harness.run(AddNote.self, .init(title: "Staff only"), as: .admin)
        #expect(try harness.run(ListNotes.self, .init(), as: .student).isEmpty)
        #expect(try harness.run(ListNotes.self, .init(), as: .teacher) == ["Staff only"])
    }

    @Test("default grants follow the seeds' matrix for the kernel's own permissions")
    func kernelGrants() throws {
        let policy = try ModuleRegistry([]).policy
        for role in Role.allCases {
            let expected: AccessScope? = [.developer, .admin].contains(role) ? .school : nil
            #expect(policy.scope(of: role, for: KernelPermissions.manageModules) == expected)
            #expect(policy.scope(of: role, for: KernelPermissions.manageSettings) == expected)
        }
    }
}
