import Foundation

/// Turns the one SQL text modules and the kernel write into what PostgreSQL accepts.
package enum PostgresSQL {
    /// Where each `$n` of a rewritten statement takes its value from.
    package enum Parameter: Hashable, Sendable {
        case positional(Int)
        case named(String)
    }

    /// `?` become `$1, $2, ...` in order, then each distinct `:name` one more `$n` (bound once
    /// however often the text repeats it). Quoted text, quoted names, comments and `::` casts
    /// are left as they are.
    package static func numbered(_ sql: String) -> (text: String, parameters: [Parameter]) {
        let bytes = Array(jsonLists(sql).utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var parameters: [Parameter] = []
        var namedIndex: [String: Int] = [:]
        var positional = 0
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                // Copy a quoted literal or name whole; a doubled quote is an escaped one.
                output.append(byte)
                index += 1
                while index < bytes.count {
                    output.append(bytes[index])
                    if bytes[index] == byte {
                        if index + 1 < bytes.count && bytes[index + 1] == byte {
                            output.append(byte)
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
                    output.append(bytes[index])
                    index += 1
                }
            case UInt8(ascii: "?"):
                positional += 1
                parameters.append(.positional(positional - 1))
                output.append(contentsOf: Array("$\(parameters.count)".utf8))
                index += 1
            case UInt8(ascii: ":"):
                if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ":") {
                    output.append(contentsOf: [byte, byte])
                    index += 2
                } else if index + 1 < bytes.count, isNameByte(bytes[index + 1]), !(bytes[index + 1] >= 0x30 && bytes[index + 1] <= 0x39) {
                    var end = index + 1
                    while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
                    let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                    let number: Int
                    if let known = namedIndex[name] {
                        number = known
                    } else {
                        parameters.append(.named(name))
                        number = parameters.count
                        namedIndex[name] = number
                    }
                    output.append(contentsOf: Array("$\(number)".utf8))
                    index = end
                } else {
                    output.append(byte)
                    index += 1
                }
            default:
                output.append(byte)
                index += 1
            }
        }
        return (String(decoding: output, as: UTF8.self), parameters)
    }

    /// SQLite's `json_each(?)` over a JSON array of text (how modules bind a list as one value)
    /// as PostgreSQL's `jsonb_array_elements_text`, whose column is named `value` too.
    /// SQLite's `group_concat(x, sep)` is PostgreSQL's `string_agg(x, sep)`.
    static func jsonLists(_ sql: String) -> String {
        var text = sql
        if text.contains("json_each(") {
            text = text.replacingOccurrences(of: #"json_each\(\s*(\?|:[A-Za-z_][A-Za-z0-9_]*)\s*\)"#,
                                             with: "jsonb_array_elements_text(CAST($1 AS jsonb))", options: .regularExpression)
        }
        if text.contains("group_concat(") {
            text = text.replacingOccurrences(of: "group_concat(", with: "string_agg(")
        }
        return text
    }

    /// Schema text written for SQLite made PostgreSQL's: 64-bit integers as SQLite's are,
    /// identity columns for `AUTOINCREMENT`, 8-byte reals, `bytea`, no `WITHOUT ROWID`, and a
    /// SQLite row trigger (`CREATE TRIGGER n AFTER e ON t BEGIN ...; END;`) as a PL/pgSQL function
    /// and trigger, until modules declare their triggers through the dialect.
    package static func portableSchema(_ sql: String) -> String {
        var text = sqliteTriggers(in: sql)
        let replacements: [(String, String)] = [
            (#"(?i)\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b"#, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
            (#"(?i)\)\s*WITHOUT\s+ROWID"#, ")"),
            (#"(?i)\bINTEGER\b"#, "BIGINT"),
            (#"(?i)\bREAL\b"#, "DOUBLE PRECISION"),
            (#"(?i)\bBLOB\b"#, "BYTEA"),
            // PostgreSQL 15 computes generated columns on write only.
            (#"(?i)(GENERATED\s+ALWAYS\s+AS\s*\(.*\))\s*VIRTUAL\b"#, "$1 STORED"),
        ]
        for (pattern, replacement) in replacements {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    private static let sqliteTrigger = try? NSRegularExpression(
        pattern: #"CREATE\s+TRIGGER\s+(\w+)\s+AFTER\s+(INSERT|UPDATE|DELETE)\s+ON\s+(\w+)\s+BEGIN\s+(.*?)\s*END\s*;"#,
        options: [.caseInsensitive, .dotMatchesLineSeparators])

    private static func sqliteTriggers(in sql: String) -> String {
        guard let pattern = sqliteTrigger, sql.range(of: "CREATE TRIGGER", options: .caseInsensitive) != nil else { return sql }
        var text = sql
        let whole = NSRange(text.startIndex..., in: text)
        for match in pattern.matches(in: text, range: whole).reversed() {
            guard let range = Range(match.range, in: text) else { continue }
            func group(_ index: Int) -> String { Range(match.range(at: index), in: text).map { String(text[$0]) } ?? "" }
            let name = PostgresDialect.identifier(group(1))
            let body = group(4)
                .replacingOccurrences(of: #"(?i)hex\(randomblob\((\d+)\)\)"#, with: "substr(md5(random()::text), 1, 2 * $1)", options: .regularExpression)
                // `ON CONFLICT … DO UPDATE SET n = n + 1`: SQLite reads the bare `n` as the
                // existing row's, PostgreSQL refuses it as ambiguous (target row or `excluded`).
                .replacingOccurrences(of: #"(?is)(INSERT\s+INTO\s+(\w+)\b.*?DO\s+UPDATE\s+SET\s+(\w+)\s*=\s*)\3\b"#,
                                      with: "$1$2.$3", options: .regularExpression)
            text.replaceSubrange(range, with: """
                CREATE OR REPLACE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $hogwarts$ BEGIN \(body) RETURN NULL; END $hogwarts$;
                CREATE TRIGGER \(name) AFTER \(group(2)) ON \(group(3)) FOR EACH ROW EXECUTE FUNCTION \(name)();
                """)
        }
        return text
    }
}
