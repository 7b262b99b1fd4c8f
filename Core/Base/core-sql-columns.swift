/// One result row read by column position, while a statement steps: what
/// `SchoolDatabase.fetchAll(_:_:decode:)` hands its decoder. Valid only inside that call.
public struct SQLColumns {
    package let source: any SQLColumnSource

    package init(source: any SQLColumnSource) {
        self.source = source
    }

    /// The text of the column at `index` (from 0); nil when it is NULL.
    public func text(_ index: Int) -> String? { source.text(index) }
    public func string(_ index: Int) -> String { source.text(index) ?? "" }
    public func integer(_ index: Int) -> Int? { source.integer(index) }
    public func int(_ index: Int) -> Int { source.integer(index) ?? 0 }
    public func double(_ index: Int) -> Double? { source.double(index) }

    /// The column at `index` as stored.
    package func value(_ index: Int) -> SQLValue { source.value(index) }
    /// The whole row keyed by column name: for the name-based reads, not the hot paths.
    package var row: SQLRow { source.row }
}

/// An engine's current row, read in place without copying it (each engine converts its own types).
package protocol SQLColumnSource {
    func text(_ index: Int) -> String?
    func integer(_ index: Int) -> Int?
    func double(_ index: Int) -> Double?
    func value(_ index: Int) -> SQLValue
    var row: SQLRow { get }
}
