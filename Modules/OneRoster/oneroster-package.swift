import Core
import Foundation
import ZIPFoundation

/// A set on disk: a zip (files at its root) or a folder. Reading parses each CSV as its bytes
/// are read or inflated, so a file's whole text is never held beside its rows; writing makes a
/// folder or a zip of the export.
enum OneRosterPackage {
    static func read(_ path: String, limits: OneRosterLimits = OneRosterLimits()) throws -> [String: OneRosterReading] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw KernelError.fileMissing(path) }
        var meter = OneRosterMeter(limits: limits)
        let files = isFolder.boolValue ? try readFolder(path, &meter) : try readZip(path, &meter)
        guard !files.isEmpty else { throw OneRosterError.unreadablePackage(path) }
        return files
    }

    /// A zip sent as bytes (the console's upload), read with the same limits as one on disk;
    /// `name` is how errors call it.
    static func read(zip data: Data, name: String, limits: OneRosterLimits) throws -> [String: OneRosterReading] {
        var meter = OneRosterMeter(limits: limits)
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch { throw OneRosterError.unreadablePackage(name) }
        let files = try readZip(archive, name, &meter)
        guard !files.isEmpty else { throw OneRosterError.unreadablePackage(name) }
        return files
    }

    private static func readFolder(_ path: String, _ meter: inout OneRosterMeter) throws -> [String: OneRosterReading] {
        let url = URL(filePath: path)
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.lowercased().hasSuffix(".csv") }
        try meter.count(entries: names.count)
        var files: [String: OneRosterReading] = [:]
        for name in names.sorted() {
            let file = url.appending(path: name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? nil
            try meter.declare(name, size: size ?? 0, compressed: nil)
            guard let handle = FileHandle(forReadingAtPath: file) else { continue }
            defer { try? handle.close() }
            var reading = FileReading(name, meter)
            var read: Int64 = 0
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                read += Int64(chunk.count)
                try meter.add(name, bytes: read, declared: size ?? .max, chunk: Int64(chunk.count))
                try reading.feed(chunk)
            }
            files[String(name.dropLast(4))] = try reading.finish(&meter)
        }
        return files
    }

    /// The files at the zip's root (or in one folder below it, as many zip tools write them).
    /// Sizes are checked as the zip declares them, and again byte by byte while inflating, so a
    /// header that lies stops at the limit, not when memory runs out.
    private static func readZip(_ path: String, _ meter: inout OneRosterMeter) throws -> [String: OneRosterReading] {
        let archive: Archive
        do { archive = try Archive(url: URL(filePath: path), accessMode: .read) } catch { throw OneRosterError.unreadablePackage(path) }
        return try readZip(archive, path, &meter)
    }

    private static func readZip(_ archive: Archive, _ path: String, _ meter: inout OneRosterMeter) throws -> [String: OneRosterReading] {
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
        var files: [String: OneRosterReading] = [:]
        for entry in entries {
            let name = (entry.path as NSString).lastPathComponent
            let declared = Int64(clamping: entry.uncompressedSize)
            var reading = FileReading(name, meter)
            var read: Int64 = 0
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    read += Int64(chunk.count)
                    try meter.add(entry.path, bytes: read, declared: declared, chunk: Int64(chunk.count))
                    try reading.feed(chunk)
                }
            } catch let error as OneRosterError {
                throw error
            } catch {
                throw OneRosterError.unreadablePackage(path)
            }
            files[String(name.dropLast(4))] = try reading.finish(&meter)
        }
        return files
    }

    /// One file being parsed, against the rows the set may still hold (the manifest is no data).
    private struct FileReading {
        let name: String
        var reader: OneRosterCSV.Reader
        let setRows: Int
        let isData: Bool

        init(_ name: String, _ meter: OneRosterMeter) {
            self.name = name
            setRows = meter.limits.rows
            isData = name.lowercased() != "manifest.csv"
            reader = OneRosterCSV.Reader(rowLimit: isData ? meter.rowsLeft : nil)
        }

        mutating func feed(_ chunk: Data) throws {
            do throws(OneRosterCSV.Reader.Refusal) { try reader.feed(chunk) } catch { throw refusal(error) }
        }

        mutating func finish(_ meter: inout OneRosterMeter) throws -> OneRosterReading {
            do throws(OneRosterCSV.Reader.Refusal) {
                let table = try reader.finish()
                if isData { meter.rowsRead += table.rows.count }
                return .table(table)
            } catch .unclosedQuote(let row) {
                return .unclosedQuote(row: row)
            } catch {
                throw refusal(error)
            }
        }

        private func refusal(_ refusal: OneRosterCSV.Reader.Refusal) -> OneRosterError {
            switch refusal {
            case .notUTF8, .unclosedQuote: .notUTF8(name)
            case .tooManyRows: OneRosterLimits.tooManyRows(setRows, file: name)
            }
        }
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
