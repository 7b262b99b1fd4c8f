import GRDB
import HogwartsBase

// Where the seam's SQL types meet GRDB: the only conversions between them.

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    init(_ databaseValue: DatabaseValue) {
        switch databaseValue.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}

extension SQLRow {
    init(_ row: Row) {
        // Sized once: grown a column at a time, a row's dictionary was resized several times.
        var columns = [String: SQLValue](minimumCapacity: row.count)
        for (column, value) in row {
            columns[column] = SQLValue(value)
        }
        self.init(columns: columns)
    }
}

extension StatementArguments {
    /// Positional values first, then the named ones. Built from existentials here: GRDB's generic
    /// initializer over `DatabaseValue`s reads each one through a key path, unspecialized across
    /// modules (several times the cost).
    init(_ bindings: SQLBindings) {
        if bindings.positional.isEmpty {
            self.init(bindings.named.mapValues { $0.databaseValue as (any DatabaseValueConvertible)? })
            return
        }
        self.init(bindings.positional.map { $0.databaseValue as (any DatabaseValueConvertible)? })
        if !bindings.named.isEmpty {
            _ = append(contentsOf: StatementArguments(bindings.named.mapValues { $0.databaseValue as (any DatabaseValueConvertible)? }))
        }
    }
}

/// Runs GRDB work, turning its errors into a localized storage error that keeps SQLite's message.
func withStorageErrors<T>(_ work: () throws -> T) throws -> T {
    do {
        return try work()
    } catch let error as DatabaseError {
        throw KernelError.storage(error.message ?? error.description)
    }
}
