import Core
import Foundation

/// How much a set may hold, each a school setting: a hostile or mistaken file ends in an error
/// naming the limit before it can fill memory or the disk, and nothing is written.
public enum OneRosterSettings {
    /// All files of a set together, decompressed, in MB.
    public static let maxTotalMB = Setting<Int>.integer("oneroster", "max-total-mb", default: 1024, in: 1...65_536, unit: .megabytes)
    /// One file, decompressed, in MB.
    public static let maxFileMB = Setting<Int>.integer("oneroster", "max-file-mb", default: 512, in: 1...65_536, unit: .megabytes)
    /// How many times larger than its compressed size a zip entry may grow.
    public static let maxRatio = Setting<Int>.integer("oneroster", "max-compression-ratio", default: 100, in: 2...10_000)
    /// Entries in a zip, or files in a folder.
    public static let maxEntries = Setting<Int>.integer("oneroster", "max-entries", default: 1000, in: 1...100_000)
    /// Data rows of all files of one import together.
    public static let maxRows = Setting<Int>.integer("oneroster", "max-rows", default: 1_000_000, in: 1...100_000_000)

    static var definitions: [SettingDefinition] {
        [maxTotalMB.definition, maxFileMB.definition, maxRatio.definition, maxEntries.definition, maxRows.definition]
    }
}

/// The limits of one reading, in bytes and counts.
struct OneRosterLimits: Sendable {
    var totalBytes: Int64 = Int64(OneRosterSettings.maxTotalMB.defaultValue) << 20
    var fileBytes: Int64 = Int64(OneRosterSettings.maxFileMB.defaultValue) << 20
    var ratio: Int64 = Int64(OneRosterSettings.maxRatio.defaultValue)
    var entries = OneRosterSettings.maxEntries.defaultValue
    /// Data rows of all files together.
    var rows = OneRosterSettings.maxRows.defaultValue

    /// The school's values as `settings list` shows them (the command reads the package before any action runs).
    init(_ states: [SettingState] = []) {
        func value(_ setting: Setting<Int>) -> Int {
            states.first { $0.key == setting.fullKey }.flatMap { Int($0.value) } ?? setting.defaultValue
        }
        totalBytes = Int64(value(OneRosterSettings.maxTotalMB)) << 20
        fileBytes = Int64(value(OneRosterSettings.maxFileMB)) << 20
        ratio = Int64(value(OneRosterSettings.maxRatio))
        entries = value(OneRosterSettings.maxEntries)
        rows = value(OneRosterSettings.maxRows)
    }

    /// Data rows of every file together (the manifest is no data) against the school's `max-rows`.
    /// Reading a package already stops at the limit; a set given as texts is checked here.
    static func checkRows(_ files: [String: OneRosterReading], _ context: ActionContext) throws {
        let limit = try context.setting(OneRosterSettings.maxRows)
        var total = 0
        for (name, reading) in files.sorted(by: { $0.key < $1.key }) where name != "manifest" {
            guard case .table(let table) = reading else { continue }
            total += table.rows.count
            if total > limit { throw tooManyRows(limit, file: name + ".csv") }
        }
    }

    static func tooManyRows(_ limit: Int, file: String) -> OneRosterError {
        .limitExceeded(limit: "rows", setting: OneRosterSettings.maxRows.fullKey, allowed: String(limit), file: file)
    }
}
