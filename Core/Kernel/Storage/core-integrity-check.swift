import HogwartsBase

extension Kernel {
    /// Checks the database with its engine's integrity check (see `IntegrityReport.mode`).
    public func checkIntegrity() -> IntegrityReport {
        store.engine.checkIntegrity()
    }
}
