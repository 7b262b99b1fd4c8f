import Core
import Auth
import Testing

@Suite("Auth's declared tables")
struct AuthDeclaredTablesTests {
    @Test("the tables and views Auth declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: AuthModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
