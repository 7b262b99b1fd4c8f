/// Sixteen bytes as a UUID's lowercase text (8-4-4-4-12 hexadecimal digits), built by hand: a
/// register of new records takes one id per student, and Foundation's route formats and then
/// lowercases. Shared by random ids (`ActionContext.lowercaseID`) and time-ordered ones.
enum UUIDText {
    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
