import Foundation
import Synchronization

/// New row ids as time-ordered UUIDs (RFC 9562 version 7), as lowercase text.
///
/// Why: random ids send every insert to a random page of each index, and a large transaction
/// (an import, a day's registers) then outgrows SQLite's page cache; ids that grow with time land
/// at the end of each index. The text is still a 36-character lowercase UUID, so stored ids and
/// every id check stay valid.
///
/// Layout: 48 bits of Unix milliseconds, the version, a 26-bit counter (the 12 bits after the
/// version and the 14 after the variant), then 48 random bits. The counter starts at a random
/// value below 2^25 each millisecond and steps by one within it, so ids of one process sort in
/// the order they were made (RFC 9562 section 6.2, method 1). The time never goes backwards:
/// if the clock does, or the counter runs out, the last millisecond is kept or advanced by one.
public enum TimeOrderedID {
    /// The millisecond and counter of the last id made.
    package struct State: Equatable {
        package var millis: UInt64 = 0
        package var counter: UInt64 = 0

        package init(millis: UInt64 = 0, counter: UInt64 = 0) {
            self.millis = millis
            self.counter = counter
        }
    }

    package static let counterBits: UInt64 = 26
    private static let state = Mutex(State())

    /// A new id, after every id this process made before.
    public static func next() -> String {
        var random = SystemRandomNumberGenerator()
        let now = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        let tail = random.next() & 0xFFFF_FFFF_FFFF
        let fresh = random.next() & ((1 << (counterBits - 1)) - 1)
        let made = state.withLock { state in
            state = step(after: state, now: now, fresh: fresh)
            return state
        }
        return text(millis: made.millis, counter: made.counter, tail: tail)
    }

    /// The next id's millisecond and counter: a later clock starts a new millisecond at `fresh`;
    /// the same or an earlier one steps the counter, and a full counter carries into the next
    /// millisecond instead of wrapping.
    package static func step(after last: State, now: UInt64, fresh: UInt64) -> State {
        if now > last.millis { return State(millis: now, counter: fresh) }
        if last.counter + 1 < 1 << counterBits { return State(millis: last.millis, counter: last.counter + 1) }
        return State(millis: last.millis + 1, counter: fresh)
    }

    /// The milliseconds since 1970 in a version 7 id's text, nil for text of another version.
    package static func millis(of id: String) -> UInt64? {
        let hex = id.replacingOccurrences(of: "-", with: "")
        guard id.count == 36, hex.count == 32, hex[hex.index(hex.startIndex, offsetBy: 12)] == "7" else { return nil }
        return UInt64(hex.prefix(12), radix: 16)
    }

    package static func text(millis: UInt64, counter: UInt64, tail: UInt64) -> String {
        let high = counter >> 14
        let low = counter & 0x3FFF
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(index))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: high >> 8)
        bytes[7] = UInt8(truncatingIfNeeded: high)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: low >> 8)
        bytes[9] = UInt8(truncatingIfNeeded: low)
        for index in 10..<16 { bytes[index] = UInt8(truncatingIfNeeded: tail >> (40 - 8 * UInt64(index - 10))) }
        return UUIDText.lowercase(bytes)
    }
}
