import Crypto
import Foundation

/// Hex SHA-256, for fingerprints that are compared, never reversed: migration checksums, request
/// inputs, session tokens at rest.
public enum Digest {
    public static func sha256Hex(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
