import Core
import Students
import Testing

@Suite("Students's declared tables")
struct StudentsDeclaredTablesTests {
    @Test("the tables and views Students declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: StudentsModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
