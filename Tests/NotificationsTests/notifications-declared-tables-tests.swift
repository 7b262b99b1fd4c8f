import Core
import Notifications
import Testing

@Suite("Notifications's declared tables")
struct NotificationsDeclaredTablesTests {
    @Test("the tables and views Notifications declares are exactly those its migrations create")
    func declaredTables() {
        let mismatches = ModuleSchema.mismatches(of: NotificationsModule())
        #expect(mismatches.undeclared.isEmpty)
        #expect(mismatches.notCreated.isEmpty)
    }
}
