import Foundation

/// One CSV file of a set as read: its header and its records, each with the row number a
/// spreadsheet shows (the header is row 1; a quoted line break does not start a new row).
public struct OneRosterTable: Codable, Sendable, Equatable {
    public var header: [String]
    public var rows: [[String]]

    /// The row number of record `index` (0-based, after the header).
    static func rowNumber(_ index: Int) -> Int { index + 2 }
}

/// One file of a set as read: its table, or the row where a quote opened and never closed
/// (reported with the set's other problems, not alone).
public enum OneRosterReading: Codable, Sendable, Equatable {
    case table(OneRosterTable)
    case unclosedQuote(row: Int)

    /// A file given as text.
    public init(text: String) {
        do throws(OneRosterCSV.Failure) { self = .table(try OneRosterCSV.parse(text)) } catch { self = .unclosedQuote(row: error.row) }
    }
}

/// RFC 4180 reading, done on bytes: quoted fields may hold commas, quotes (`""`) and line
/// breaks; lines end in LF or CRLF; a UTF-8 byte-order mark is dropped.
enum OneRosterCSV {
    struct Failure: Error {
        let row: Int
    }

    /// A whole text at once (a set given as texts, the tests' fixtures).
    static func parse(_ text: String) throws(Failure) -> OneRosterTable {
        var reader = Reader()
        do throws(Reader.Refusal) {
            try reader.feed(Data(text.utf8))
            return try reader.finish()
        } catch .unclosedQuote(let row) {
            throw Failure(row: row)
        } catch {
            // A String is UTF-8 and no row limit was set: nothing else can be refused.
            throw Failure(row: 1)
        }
    }

    /// A file read in chunks, as a folder's file is read or a zip entry inflated: only the rows
    /// parsed so far are held, never the file's whole text beside them.
    struct Reader {
        enum Refusal: Error, Equatable {
            /// A quote opened at this row (as a spreadsheet numbers it) and never closed.
            case unclosedQuote(row: Int)
            /// A field whose bytes are not UTF-8 (fields split on ASCII bytes only, so checking
            /// each field checks the whole file).
            case notUTF8
            /// More rows than `rowLimit`.
            case tooManyRows
        }

        /// Data rows this file may hold, or nil for no limit.
        var rowLimit: Int?
        private var records: [[String]] = []
        private var record: [String] = []
        private var field: [UInt8] = []
        private var quoted = false
        private var fieldStarted = false
        /// A quote that ended a quoted field, unless the next byte is a quote too (`""`).
        private var quoteEnded = false
        /// A carriage return, dropped if a line feed follows.
        private var carriageReturn = false
        /// The first bytes, until they are known not to be a byte-order mark.
        private var head: [UInt8]? = []

        init(rowLimit: Int? = nil) { self.rowLimit = rowLimit }

        mutating func feed(_ chunk: Data) throws(Refusal) {
            var refusal: Refusal?
            chunk.withUnsafeBytes { bytes in
                for byte in bytes {
                    do throws(Refusal) { try take(byte) } catch {
                        refusal = error
                        return
                    }
                }
            }
            if let refusal { throw refusal }
        }

        mutating func finish() throws(Refusal) -> OneRosterTable {
            if let held = head {
                head = nil
                if held != Self.byteOrderMark { for byte in held { try step(byte) } }
            }
            if carriageReturn { try step(nil) }
            if quoted { throw .unclosedQuote(row: records.count + 1) }
            if !field.isEmpty || !record.isEmpty || fieldStarted { try endRecord() }
            guard let header = records.first else { return OneRosterTable(header: [], rows: []) }
            return OneRosterTable(header: header, rows: Array(records.dropFirst()))
        }

        private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

        private mutating func take(_ byte: UInt8) throws(Refusal) {
            if var held = head {
                held.append(byte)
                if held.count < 3, Self.byteOrderMark.starts(with: held) { head = held; return }
                head = nil
                if held != Self.byteOrderMark { for byte in held { try step(byte) } }
                return
            }
            try step(byte)
        }

        /// One byte; nil flushes a carriage return at the end of the file.
        private mutating func step(_ next: UInt8?) throws(Refusal) {
            if carriageReturn {
                carriageReturn = false
                if next != UInt8(ascii: "\n") {
                    field.append(UInt8(ascii: "\r"))
                    fieldStarted = true
                }
            }
            guard let byte = next else { return }
            if quoteEnded {
                quoteEnded = false
                if byte == UInt8(ascii: "\"") {
                    field.append(byte)
                    quoted = true
                    return
                }
            }
            if quoted {
                if byte == UInt8(ascii: "\"") { quoted = false; quoteEnded = true } else { field.append(byte) }
                return
            }
            switch byte {
            case UInt8(ascii: "\"") where !fieldStarted && field.isEmpty:
                quoted = true
                fieldStarted = true
            case UInt8(ascii: ","):
                try endField()
            case UInt8(ascii: "\n"):
                try endRecord()
            case UInt8(ascii: "\r"):
                carriageReturn = true
            default:
                field.append(byte)
                fieldStarted = true
            }
        }

        private mutating func endField() throws(Refusal) {
            guard let text = String(validating: field, as: UTF8.self) else { throw .notUTF8 }
            record.append(text)
            field.removeAll(keepingCapacity: true)
            fieldStarted = false
        }

        private mutating func endRecord() throws(Refusal) {
            try endField()
            // A blank line (one empty field) is not a record.
            if !(record.count == 1 && record[0].isEmpty) {
                if let rowLimit, records.count > rowLimit { throw .tooManyRows }
                records.append(record)
            }
            record = []
        }
    }

    /// One cell as written: quoted when it holds a comma, a quote or a line break.
    static func cell(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A whole file: header then rows, CRLF line ends as RFC 4180 writes them.
    static func write(header: [String], rows: [[String]]) -> String {
        var text = header.map(cell).joined(separator: ",") + "\r\n"
        for row in rows { text += row.map(cell).joined(separator: ",") + "\r\n" }
        return text
    }
}
