/// CSV records as RFC 4180 writes them, read strictly.
///
/// SwiftCSV reported a broken quote as `quotation(message: ...)` with no row, and accepted a
/// quote in the middle of a field. This reader knows where it is, so a person is told which row
/// and field to fix. Rows count records (a quoted line break stays in its record), the header
/// being row 1, as a spreadsheet shows them.
enum CSVRecords {
    /// Where the text stops being CSV: the row, the field (0-based) and the reason's catalog key.
    struct Failure: Error, Equatable {
        let row: Int
        let field: Int
        let key: String
        /// The header row, when the failure comes after it, to name the column.
        var header: [String]?
    }

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    static func parse(_ text: String) throws(Failure) -> [[String]] {
        var records: [[String]] = []
        var cells: [String] = []
        var cell = String.UnicodeScalarView()
        var state = State.fieldStart
        var quoteRow = 1
        var skipLineFeed = false
        func endCell() {
            cells.append(String(cell))
            cell = String.UnicodeScalarView()
        }
        func endRecord() {
            endCell()
            records.append(cells)
            cells = []
        }
        for scalar in text.unicodeScalars {
            // CR LF ends a record once, not twice.
            if skipLineFeed {
                skipLineFeed = false
                if scalar == "\n" { continue }
            }
            // The whole grammar as one table: inside quotes only a quote matters; outside, a comma
            // ends the field and a line break the record, whatever came before.
            switch (state, scalar) {
            case (.quoted, "\""): state = .quoteInQuoted
            case (.quoted, _): cell.append(scalar)
            case (_, ","):
                endCell()
                state = .fieldStart
            case (_, "\n"), (_, "\r"):
                endRecord()
                skipLineFeed = scalar == "\r"
                state = .fieldStart
            case (.quoteInQuoted, "\""):
                cell.append(scalar)
                state = .quoted
            case (.quoteInQuoted, _):
                throw Failure(row: records.count + 1, field: cells.count, key: "students.csv.after-quote", header: records.first)
            case (.fieldStart, "\""):
                state = .quoted
                quoteRow = records.count + 1
            case (.unquoted, "\""):
                throw Failure(row: records.count + 1, field: cells.count, key: "students.csv.stray-quote", header: records.first)
            case (.fieldStart, _), (.unquoted, _):
                cell.append(scalar)
                state = .unquoted
            }
        }
        if state == .quoted { throw Failure(row: quoteRow, field: cells.count, key: "students.csv.unclosed-quote", header: quoteRow > 1 ? records.first : nil) }
        if !cell.isEmpty || !cells.isEmpty || state == .quoteInQuoted { endRecord() }
        return records
    }
}
