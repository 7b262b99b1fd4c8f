import Foundation
import GRDB
import HogwartsBase

/// SQLite's own verdict on every page, index and constraint (`hogwarts check`).
enum SQLiteIntegrity {
    /// 1 GiB: below this the full check takes seconds; above it, the quick one.
    static let quickCheckAbove: Int64 = 1 << 30

    /// `integrity_check` (every page and index), or `quick_check` for files over `quickCheckAbove`
    /// bytes, which skips comparing indexes with their tables and runs in a fraction of the time.
    static func mode(forFileAt path: String) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        return size > quickCheckAbove ? "quick_check" : "integrity_check"
    }

    /// Runs the check on a connection. A page so damaged that SQLite cannot read it at all is
    /// reported as a problem too, not thrown.
    static func run(on reader: any DatabaseReader, path: String) -> IntegrityReport {
        let mode = mode(forFileAt: path)
        let findings: [String]
        do {
            findings = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA \(mode)(20)") }
        } catch let error as DatabaseError {
            findings = [error.message ?? error.description]
        } catch {
            findings = [String(describing: error)]
        }
        let ok = findings == ["ok"]
        return IntegrityReport(mode: mode, path: path, ok: ok, problems: ok ? [] : findings)
    }

    /// Throws `corruptDatabase` unless the check passes.
    static func require(_ reader: any DatabaseReader, path: String) throws {
        let report = run(on: reader, path: path)
        guard report.ok else {
            throw KernelError.corruptDatabase(path: path, detail: report.problems.prefix(3).joined(separator: "; "))
        }
    }
}

extension SQLiteEngine {
    package func checkIntegrity() -> IntegrityReport {
        SQLiteIntegrity.run(on: pool, path: path)
    }
}
