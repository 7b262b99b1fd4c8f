import GRDB

/// One result row read by column position, while a statement steps: what
/// `SchoolDatabase.fetchAll(_:_:decode:)` hands its decoder. Valid only inside that call.
public struct SQLColumns {
    let row: Row

    /// The text of the column at `index` (from 0); nil when it is NULL.
    public func text(_ index: Int) -> String? { row[index] }
    public func string(_ index: Int) -> String { row[index] ?? "" }
    public func integer(_ index: Int) -> Int? { row[index] }
    public func int(_ index: Int) -> Int { row[index] ?? 0 }
    public func double(_ index: Int) -> Double? { row[index] }
}
