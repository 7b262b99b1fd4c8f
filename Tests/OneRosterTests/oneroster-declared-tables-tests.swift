import Core
import OneRoster
import Testing

@Suite("OneRoster's declared tables")
struct OneRosterDeclaredTablesTests {
    @Test("the tables and views OneRoster declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: OneRosterModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
