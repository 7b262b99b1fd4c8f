import Crypto
import Foundation

/// Hex SHA-256, for fingerprints that are compared, never reversed: migration checksums, request
/// inputs, session tokens at rest.
public enum Digest {
    public static func sha256Hex(_ data: Data) -> String {
        // Hex by hand: `String(format:)` per byte cost far more than the hash itself (an import
        // hashes a set-password code per account).
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: data) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
