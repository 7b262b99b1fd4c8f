import Core
import Foundation
import ZIPFoundation

/// A set on disk: a zip (files at its root) or a folder. Reading gives each CSV's text by file
/// name without `.csv`; writing makes a folder or a zip of the export.
enum OneRosterPackage {
    static func read(_ path: String) throws -> [String: String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw KernelError.fileMissing(path) }
        var files: [String: Data] = [:]
        if isFolder.boolValue {
            let url = URL(filePath: path)
            for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.lowercased().hasSuffix(".csv") {
                files[String(name.dropLast(4))] = FileManager.default.contents(atPath: url.appending(path: name).path)
            }
        } else {
            let archive: Archive
            do { archive = try Archive(url: URL(filePath: path), accessMode: .read) } catch { throw OneRosterError.unreadablePackage(path) }
            for entry in archive where entry.type == .file {
                let name = (entry.path as NSString).lastPathComponent
                guard name.lowercased().hasSuffix(".csv"), !entry.path.hasPrefix("__MACOSX") else { continue }
                var data = Data()
                do { _ = try archive.extract(entry, skipCRC32: false) { data.append($0) } } catch { throw OneRosterError.unreadablePackage(path) }
                files[String(name.dropLast(4))] = data
            }
        }
        guard !files.isEmpty else { throw OneRosterError.unreadablePackage(path) }
        var texts: [String: String] = [:]
        for (name, data) in files {
            guard let text = String(data: data, encoding: .utf8) else { throw OneRosterError.notUTF8(name + ".csv") }
            texts[name] = text
        }
        return texts
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
