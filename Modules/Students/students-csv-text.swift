import Core
import Foundation

/// The text of a students CSV file, from its bytes.
///
/// A spreadsheet saved as "Unicode text" is UTF-16: read as UTF-8 it became six "required
/// column missing" lines. Its byte-order mark (or the zero bytes UTF-16 puts between ASCII
/// letters) is recognised and the person is told how to save the file instead. A UTF-8 BOM is
/// simply skipped. Bytes that are not UTF-8 become U+FFFD here, and the import then names the
/// row and column that holds them.
public enum StudentsCSVText {
    public static func decode(_ data: Data) throws -> String {
        let head = [UInt8](data.prefix(4))
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw InputError("students.error.csv-encoding", ["encoding": "UTF-32"])
        }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || looksLikeWideText(data) {
            throw InputError("students.error.csv-encoding", ["encoding": "UTF-16"])
        }
        let body = head.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        return String(decoding: body, as: UTF8.self)
    }

    /// UTF-16 or UTF-32 without a BOM: a quarter or more of the first bytes are zero. A single
    /// NUL in a name is not this; the import reports it as a control character in its cell.
    private static func looksLikeWideText(_ data: Data) -> Bool {
        let sample = data.prefix(256)
        guard sample.count >= 8 else { return false }
        return sample.filter { $0 == 0 }.count * 4 >= sample.count
    }
}
