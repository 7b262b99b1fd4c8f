import Core
import Messages
import Testing

@Suite("Messages's declared tables")
struct MessagesDeclaredTablesTests {
    @Test("the tables and views Messages declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: MessagesModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
