import HogwartsBase
import HogwartsHTTP

/// Refusals of the sync protocol itself (a mutation's own refusal is its module's error).
/// Codes on the wire: `SYNC_CLIENT_ID_INVALID`, `SYNC_SEQ_REUSED`, `SYNC_MUTATION_UNKNOWN`, ...
public enum SyncError: HogwartsError, Equatable {
    case clientIDInvalid(String)
    case clientForeign
    case batchSize(Int)
    case seqInvalid(Int)
    case seqReused(Int)
    case mutationUnknown(String)
    case schemaUnsupported(Int)
    case cursorInvalid
    /// The database was busy or failed to write: nothing of the current mutation was kept.
    case unavailable(String)

    public var messageKey: String {
        switch self {
        case .clientIDInvalid: "sync.error.client-id-invalid"
        case .clientForeign: "sync.error.client-foreign"
        case .batchSize: "sync.error.batch-size"
        case .seqInvalid: "sync.error.seq-invalid"
        case .seqReused: "sync.error.seq-reused"
        case .mutationUnknown: "sync.error.mutation-unknown"
        case .schemaUnsupported: "sync.error.schema-unsupported"
        case .cursorInvalid: "sync.error.cursor-invalid"
        case .unavailable: "sync.error.unavailable"
        }
    }

    public var messageArguments: [String: String] {
        switch self {
        case .clientIDInvalid(let id): ["client": id]
        case .batchSize(let count): ["count": String(count), "maximum": String(SyncProtocol.maximumMutations)]
        case .seqInvalid(let seq), .seqReused(let seq): ["seq": String(seq)]
        case .mutationUnknown(let name): ["name": name]
        case .schemaUnsupported(let version): ["version": String(version), "supported": String(SyncProtocol.schemaVersion)]
        case .unavailable(let detail): ["detail": detail, "seconds": String(SyncError.retryAfterSeconds)]
        case .clientForeign, .cursorInvalid: [:]
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .clientIDInvalid, .batchSize, .seqInvalid, .cursorInvalid: .usage
        case .clientForeign: .permissionDenied
        case .seqReused: .conflict
        case .mutationUnknown, .schemaUnsupported: .configuration
        case .unavailable: .unavailable
        }
    }

    /// How long a client waits before sending again after a transient failure.
    public static let retryAfterSeconds = 2

    /// The HTTP answer: 426 for a mutation or schema this server does not know, 503 with
    /// `Retry-After` for a transient failure, otherwise the usual mapping.
    var apiError: APIError {
        let code = APIError.code(for: messageKey)
        switch self {
        case .mutationUnknown, .schemaUnsupported:
            return APIError(status: 426, code: code, messageKey: messageKey, arguments: messageArguments)
        case .unavailable:
            var error = APIError(status: 503, code: code, messageKey: messageKey, arguments: messageArguments)
            error.headers["Retry-After"] = String(Self.retryAfterSeconds)
            return error
        default:
            return APIError(status: APIError.status(for: self), code: code, messageKey: messageKey, arguments: messageArguments)
        }
    }
}
