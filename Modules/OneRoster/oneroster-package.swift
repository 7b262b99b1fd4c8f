import Core
import Foundation
import ZIPFoundation

/// A set on disk: a zip (files at its root) or a folder. Reading gives each CSV's text by file
/// name without `.csv`; writing makes a folder or a zip of the export.
enum OneRosterPackage {
    static func read(_ path: String, limits: OneRosterLimits = OneRosterLimits()) throws -> [String: String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw KernelError.fileMissing(path) }
        var meter = OneRosterMeter(limits: limits)
        var files = isFolder.boolValue ? try readFolder(path, &meter) : try readZip(path, &meter)
        guard !files.isEmpty else { throw OneRosterError.unreadablePackage(path) }
        var texts: [String: String] = [:]
        for name in files.keys.sorted() {
            // Each file's bytes are let go once it is text, so a large set is not held twice.
            guard let data = files.removeValue(forKey: name), let text = String(data: data, encoding: .utf8) else { throw OneRosterError.notUTF8(name + ".csv") }
            texts[name] = text
        }
        return texts
    }

    private static func readFolder(_ path: String, _ meter: inout OneRosterMeter) throws -> [String: Data] {
        let url = URL(filePath: path)
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.lowercased().hasSuffix(".csv") }
        try meter.count(entries: names.count)
        var files: [String: Data] = [:]
        for name in names.sorted() {
            let file = url.appending(path: name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? nil
            try meter.declare(name, size: size ?? 0, compressed: nil)
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            try meter.add(name, bytes: Int64(data.count), declared: size ?? Int64(data.count))
            files[String(name.dropLast(4))] = data
        }
        return files
    }

    /// The files at the zip's root (or in one folder below it, as many zip tools write them).
    /// Sizes are checked as the zip declares them, and again byte by byte while inflating, so a
    /// header that lies stops at the limit, not when memory runs out.
    private static func readZip(_ path: String, _ meter: inout OneRosterMeter) throws -> [String: Data] {
        let archive: Archive
        do { archive = try Archive(url: URL(filePath: path), accessMode: .read) } catch { throw OneRosterError.unreadablePackage(path) }
        var entries: [Entry] = []
        var seen = 0
        for entry in archive {
            seen += 1
            try meter.count(entries: seen)
            let depth = entry.path.split(separator: "/").count
            guard entry.type == .file, depth <= 2, !entry.path.hasPrefix("__MACOSX"), entry.path.lowercased().hasSuffix(".csv") else { continue }
            try meter.declare(entry.path, size: Int64(clamping: entry.uncompressedSize), compressed: Int64(clamping: entry.compressedSize))
            entries.append(entry)
        }
        var files: [String: Data] = [:]
        for entry in entries {
            let name = (entry.path as NSString).lastPathComponent
            let declared = Int64(clamping: entry.uncompressedSize)
            var data = Data()
            // Room for what is declared, up to 64 MB: a lying header cannot make us reserve more.
            data.reserveCapacity(Int(min(declared, meter.limits.fileBytes, 64 << 20)))
            var read: Int64 = 0
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    read += Int64(chunk.count)
                    try meter.add(entry.path, bytes: read, declared: declared, chunk: Int64(chunk.count))
                    data.append(chunk)
                }
            } catch let error as OneRosterError {
                throw error
            } catch {
                throw OneRosterError.unreadablePackage(path)
            }
            files[String(name.dropLast(4))] = data
        }
        return files
    }

    /// Writes the export to a new folder, or a new zip (deflated) with the files at its root.
    /// Like a backup it holds people's names, birth dates and emails: only its owner may read it.
    static func write(_ files: [String: String], to path: String, zip: Bool) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw OneRosterError.targetExists(path) }
        if zip {
            // Built in memory, then written once, created with its final mode.
            let archive = try Archive(data: Data(), accessMode: .create)
            for (name, text) in files.sorted(by: { $0.key < $1.key }) {
                let data = Data(text.utf8)
                try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            guard let data = archive.data else { throw KernelError.fileMissing(path) }
            try FileSafety.writePrivateFile(data, to: path)
        } else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            for (name, text) in files {
                let file = URL(filePath: path).appending(path: name).path
                try FileSafety.writePrivateFile(Data(text.utf8), to: file)
            }
        }
    }
}
