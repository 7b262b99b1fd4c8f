import Core
import Foundation
import HTTPTypes
import Testing

/// Whose address a request comes from, behind a proxy or not: limits, audit and logs use it.
@Suite("Trusted proxies")
struct TrustedProxiesTests {
    static func headers(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }

    @Test("with no proxy configured, a forged X-Forwarded-For changes nothing")
    func nobodyTrusted() throws {
        let proxies = try TrustedProxies("")
        #expect(proxies.clientAddress(peer: "203.0.113.9", headers: Self.headers([("X-Forwarded-For", "198.51.100.1")])) == "203.0.113.9")
        #expect(!proxies.isHTTPS(peer: "203.0.113.9", headers: Self.headers([("X-Forwarded-Proto", "https")])))
    }

    @Test("from a trusted proxy, the right-most hop that is not a proxy is the client; hops the client wrote are ignored")
    func rightMostUntrusted() throws {
        let proxies = try TrustedProxies("127.0.0.1, 10.0.0.0/8 ::1")
        let forged = Self.headers([("X-Forwarded-For", "1.2.3.4, 198.51.100.7, 10.1.2.3")])
        #expect(proxies.clientAddress(peer: "127.0.0.1", headers: forged) == "198.51.100.7")
        #expect(proxies.clientAddress(peer: "::1", headers: Self.headers([("X-Forwarded-For", "2001:db8::5")])) == "2001:db8::5")
        // Two headers read as one list, in order.
        let split = Self.headers([("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-For", "198.51.100.8")])
        #expect(proxies.clientAddress(peer: "10.9.9.9", headers: split) == "198.51.100.8")
        // A direct client is taken at its socket, whatever it claims.
        #expect(proxies.clientAddress(peer: "198.51.100.20", headers: forged) == "198.51.100.20")
        // Every hop a proxy: the left-most is the best there is.
        #expect(proxies.clientAddress(peer: "127.0.0.1", headers: Self.headers([("X-Forwarded-For", "10.0.0.2, 10.0.0.3")])) == "10.0.0.2")
        #expect(proxies.clientAddress(peer: "127.0.0.1", headers: HTTPFields()) == "127.0.0.1")
    }

    @Test("RFC 7239 Forwarded is read before X-Forwarded-For, with ports and brackets taken off")
    func forwardedHeader() throws {
        let proxies = try TrustedProxies("127.0.0.0/8")
        let headers = Self.headers([("Forwarded", "for=1.2.3.4, for=\"[2001:db8::9]:4711\";proto=https"), ("X-Forwarded-For", "198.51.100.1")])
        #expect(proxies.clientAddress(peer: "127.0.0.2", headers: headers) == "2001:db8::9")
        #expect(proxies.isHTTPS(peer: "127.0.0.2", headers: headers))
        #expect(proxies.clientAddress(peer: "127.0.0.2", headers: Self.headers([("Forwarded", "for=192.0.2.60:8080;proto=http")])) == "192.0.2.60")
        #expect(proxies.isHTTPS(peer: "::ffff:127.0.0.1", headers: Self.headers([("X-Forwarded-Proto", "https")])))
    }

    @Test("a range that is no address is refused, naming it")
    func invalidEntries() {
        for text in ["10.0.0.0/33", "nginx", "10.0.0.1/x", "::1/129"] {
            #expect(throws: KernelError.invalidTrustedProxy(text.split(separator: " ").first.map(String.init) ?? text)) { try TrustedProxies(text) }
        }
    }
}
