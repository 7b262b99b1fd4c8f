import Core
import Foundation

/// Counts what a set's reading takes against its limits: entries, each file's size and ratio as
/// declared, and the bytes actually read, which may not pass what was declared.
struct OneRosterMeter {
    let limits: OneRosterLimits
    private var total: Int64 = 0
    /// Data rows of the files read so far, and how many more the set may hold.
    var rowsRead = 0
    var rowsLeft: Int { max(limits.rows - rowsRead, 0) }

    init(limits: OneRosterLimits) { self.limits = limits }

    func count(entries: Int) throws {
        if entries > limits.entries { throw exceeded("entries", OneRosterSettings.maxEntries, String(limits.entries), "-") }
    }

    /// What a zip entry says it holds (a folder's file: its size), before reading a byte.
    func declare(_ file: String, size: Int64, compressed: Int64?) throws {
        if size > limits.fileBytes { throw exceeded("file-size", OneRosterSettings.maxFileMB, megabytes(limits.fileBytes), file) }
        // Small entries compress well and harmlessly: the ratio matters from 1 MB up.
        if let compressed, size > 1 << 20, size > max(compressed, 1) * limits.ratio {
            throw exceeded("ratio", OneRosterSettings.maxRatio, "\(limits.ratio):1", file)
        }
    }

    /// Bytes read so far of one file; `chunk` of them are new to the total.
    mutating func add(_ file: String, bytes: Int64, declared: Int64, chunk: Int64? = nil) throws {
        total += chunk ?? bytes
        if bytes > declared { throw exceeded("declared-size", OneRosterSettings.maxFileMB, String(declared), file) }
        if bytes > limits.fileBytes { throw exceeded("file-size", OneRosterSettings.maxFileMB, megabytes(limits.fileBytes), file) }
        if total > limits.totalBytes { throw exceeded("total-size", OneRosterSettings.maxTotalMB, megabytes(limits.totalBytes), file) }
    }

    private func megabytes(_ bytes: Int64) -> String { "\(bytes >> 20) MB" }

    private func exceeded(_ limit: String, _ setting: Setting<Int>, _ allowed: String, _ file: String) -> OneRosterError {
        .limitExceeded(limit: limit, setting: setting.fullKey, allowed: allowed, file: file)
    }
}
