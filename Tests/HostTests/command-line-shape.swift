import HogwartsTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// A suite that checks what the command line says: its words, flags, exit codes and JSON
    /// shapes, or a program (the benchmark, the deploy files) that picks its own database. The
    /// data work under its commands is the module actions the module suites run on both engines,
    /// so on PostgreSQL it would repeat the SQLite pass word for word. CI's PostgreSQL pass leaves
    /// it out to stay inside its time (docs/testing.md, "What runs on which engine").
    static var commandLineShape: Self {
        .disabled(if: TestDatabase.isPostgres, "what the command line prints is the same on either engine: the SQLite pass runs it")
    }
}
