/// JSON text for payloads, written by hand: the change recorder serialises every synced row a
/// transaction touches (a register is thirty), and Foundation's encoder costs several times more.
/// Keys are sorted, so the same value always gives the same text (compared by digest).
extension APIValue {
    package var jsonText: String {
        var text = ""
        write(to: &text)
        return text
    }

    func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value): text += value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.quote(value, into: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let members): Self.write(members, to: &text)
        }
    }

    static func write(_ members: [String: APIValue], to text: inout String) {
        text += "{"
        for (index, key) in members.keys.sorted().enumerated() {
            if index > 0 { text += "," }
            quote(key, into: &text)
            text += ":"
            members[key]?.write(to: &text)
        }
        text += "}"
    }

    static func quote(_ value: String, into text: inout String) {
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
