#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HTTPTypes
import HogwartsBase

/// The proxies (nginx, a load balancer) whose forwarding headers are believed, from
/// `HOGWARTS_TRUSTED_PROXIES`: addresses or CIDR ranges, IPv4 or IPv6, separated by commas or
/// spaces. A request from any other peer is taken at its socket's address, whatever it claims.
public struct TrustedProxies: Sendable, Equatable {
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        package let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let ranges: [Range]

    public static let none = TrustedProxies(ranges: [])

    init(ranges: [Range]) { self.ranges = ranges }

    /// Parses the variable's text; an entry that is no address or range is refused, naming it.
    public init(_ text: String) throws {
        var ranges: [Range] = []
        for entry in text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\n" }) {
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let bytes = Self.bytes(of: String(parts[0])) else { throw KernelError.invalidTrustedProxy(String(entry)) }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...(bytes.count * 8)).contains(prefix) else { throw KernelError.invalidTrustedProxy(String(entry)) }
            ranges.append(Range(bytes: bytes, prefix: prefix))
        }
        self.init(ranges: ranges)
    }

    /// This process's, read once from the environment (`serve` refuses to start when it is invalid).
    public static let configured: TrustedProxies = (try? fromEnvironment()) ?? .none

    /// From the environment; unset or empty trusts no one.
    public static func fromEnvironment(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws -> TrustedProxies {
        try TrustedProxies(variables["HOGWARTS_TRUSTED_PROXIES"] ?? "")
    }

    public func trusts(_ address: String) -> Bool {
        guard !ranges.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address: the peer's own, unless the peer is trusted; then the right-most hop
    /// of `Forwarded` (or else `X-Forwarded-For`) that is not a trusted proxy. Hops to the left
    /// of it were written by the client and prove nothing.
    public func clientAddress(peer: String, headers: HTTPFields) -> String {
        guard trusts(peer) else { return peer }
        let hops = Self.forwardedValues("for", headers) ?? Self.list(headers, "X-Forwarded-For")
        for hop in hops.reversed() {
            let address = Self.bare(hop)
            if !trusts(address) { return address }
        }
        return hops.first.map(Self.bare) ?? peer
    }

    /// Whether the client reached the trusted proxy over HTTPS (`Forwarded: proto=https` or `X-Forwarded-Proto`).
    public func isHTTPS(peer: String, headers: HTTPFields) -> Bool {
        guard trusts(peer) else { return false }
        let proto = Self.forwardedValues("proto", headers)?.last ?? Self.list(headers, "X-Forwarded-Proto").last
        return proto?.lowercased() == "https"
    }

    /// The values of one parameter of RFC 7239's `Forwarded`, left to right, or nil without the header.
    static func forwardedValues(_ parameter: String, _ headers: HTTPFields) -> [String]? {
        guard let name = HTTPField.Name("Forwarded") else { return nil }
        let elements = headers[values: name].flatMap { $0.split(separator: ",") }
        guard !elements.isEmpty else { return nil }
        return elements.compactMap { element in
            element.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.lowercased().hasPrefix(parameter + "=") }
                .map { String($0.dropFirst(parameter.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
    }

    static func list(_ headers: HTTPFields, _ field: String) -> [String] {
        guard let name = HTTPField.Name(field) else { return [] }
        return headers[values: name].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `[2001:db8::1]:443` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`.
    static func bare(_ hop: String) -> String {
        if hop.hasPrefix("["), let end = hop.firstIndex(of: "]") { return String(hop[hop.index(after: hop.startIndex)..<end]) }
        if hop.filter({ $0 == ":" }).count == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
        return hop
    }

    static func bytes(of address: String) -> [UInt8]? {
        var four = in_addr()
        if inet_pton(AF_INET, address, &four) == 1 { return withUnsafeBytes(of: &four) { Array($0) } }
        var six = in6_addr()
        if inet_pton(AF_INET6, address, &six) == 1 {
            let bytes = withUnsafeBytes(of: &six) { Array($0) }
            // An IPv4 client seen on an IPv6 socket (::ffff:192.0.2.1) is that IPv4 client.
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes.suffix(4)) }
            return bytes
        }
        return nil
    }
}
