import Foundation
import HogwartsBase

/// Dated backups in one folder, `hogwarts-2026-11-27T221500Z.sqlite` (UTC, to the second), of
/// which `backup --keep N` leaves the newest N. The names sort as the times do, and only names
/// of exactly this shape are ever removed: anything else in the folder is someone else's.
public enum BackupRotation {
    /// The file name for a backup taken at `date`.
    public static func fileName(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "hogwarts-\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z.sqlite"
    }

    /// Whether `name` is one of ours: `hogwarts-YYYY-MM-DDTHHMMSSZ.sqlite`, nothing before or after.
    public static func isDated(_ name: String) -> Bool {
        name.wholeMatch(of: /hogwarts-[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{6}Z\.sqlite/) != nil
    }

    /// Removes the oldest dated backups in `folder` so that `keep` remain; returns the names
    /// removed, oldest first. Files of any other name, and folders, are left alone.
    @discardableResult
    public static func prune(_ folder: String, keep: Int) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in
            var status = stat()
            return isDated(name) && lstat("\(folder)/\(name)", &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }.sorted()
        let removed = Array(names.dropLast(max(0, keep)))
        for name in removed {
            // Gone already (another run pruned it): that is what was wanted.
            if unlink("\(folder)/\(name)") != 0 && errno != ENOENT {
                throw KernelError.storage("\(folder)/\(name): \(String(cString: strerror(errno)))")
            }
        }
        return removed
    }
}
