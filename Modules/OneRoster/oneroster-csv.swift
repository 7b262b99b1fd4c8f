import Foundation

/// One CSV file of a set as read: its header and its records, each with the row number a
/// spreadsheet shows (the header is row 1; a quoted line break does not start a new row).
public struct OneRosterTable: Sendable {
    public var header: [String]
    public var rows: [[String]]

    /// The row number of record `index` (0-based, after the header).
    static func rowNumber(_ index: Int) -> Int { index + 2 }
}

/// RFC 4180 reading, done on bytes: quoted fields may hold commas, quotes (`""`) and line
/// breaks; lines end in LF or CRLF; a UTF-8 byte-order mark is dropped.
enum OneRosterCSV {
    struct Failure: Error {
        let row: Int
    }

    static func parse(_ text: String) throws(Failure) -> OneRosterTable {
        var text = text
        text.makeContiguousUTF8()
        // Read in place: a copy of the bytes would double a large file's memory.
        let result = text.utf8.withContiguousStorageIfAvailable(attempt) ?? Array(text.utf8).withUnsafeBufferPointer(attempt)
        return try result.get()
    }

    private static func attempt(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<OneRosterTable, Failure> {
        let bytes = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: buffer.dropFirst(3)) : buffer
        do throws(Failure) { return .success(try parse(bytes: bytes)) } catch { return .failure(error) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> OneRosterTable {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var index = 0
        var quoted = false
        var fieldStarted = false
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldStarted = false
        }
        func endRecord() {
            endField()
            // A blank line (one empty field) is not a record.
            if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
            record = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\"") where !fieldStarted && field.isEmpty:
                    quoted = true
                    fieldStarted = true
                case UInt8(ascii: ","):
                    endField()
                case UInt8(ascii: "\n"):
                    endRecord()
                case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                    break
                default:
                    field.append(byte)
                    fieldStarted = true
                }
            }
            index += 1
        }
        if quoted { throw Failure(row: records.count + 1) }
        if !field.isEmpty || !record.isEmpty || fieldStarted { endRecord() }
        guard let header = records.first else { return OneRosterTable(header: [], rows: []) }
        return OneRosterTable(header: header, rows: Array(records.dropFirst()))
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
