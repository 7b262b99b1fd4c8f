@testable import Core
import Foundation
import PropertyBased
import Testing

/// Base64url as signed tokens carry it: every byte string round-trips, and only its one
/// spelling decodes, so a signature cannot be respelled and still check.
@Suite("Base64url: one spelling for each byte string")
struct Base64URLTests {
    static let bytes = Gen.int(in: 0...255).array(of: 0...40).map { Data($0.map(UInt8.init)) }

    @Test("any bytes encode without padding or '+' and '/' and decode back to themselves")
    func roundTrip() async {
        await propertyCheck(count: 500, input: Self.bytes) { data in
            let text = Base64URL.encode(data)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == data)
        }
    }

    @Test("the last character with its unused low bits set is refused, as are padding and other alphabets")
    func otherSpellings() async {
        await propertyCheck(count: 500, input: Self.bytes) { data in
            let text = Base64URL.encode(data)
            guard data.count % 3 != 0, let last = text.last else { return }
            // One byte over a group leaves four unused bits, two bytes leave two: the lowest is always unused.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            let index = alphabet.firstIndex(of: last) ?? 0
            let respelled = String(text.dropLast()) + String(alphabet[index | 1])
            #expect(Base64URL.decode(respelled) == nil, "\(text) respelled \(respelled)")
        }
        let mac = Base64URL.encode(Data(repeating: 0xFB, count: 32))
        #expect(Base64URL.decode(mac) != nil)
        #expect(Base64URL.decode(mac + "=") == nil)
        #expect(Base64URL.decode(mac.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")) == nil)
        #expect(Base64URL.decode(String(mac.dropLast()) + " ") == nil)
    }
}
