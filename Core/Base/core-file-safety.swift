import Foundation

/// The database holds bcrypt hashes and children's records, the session file live sign-in
/// tokens: such files are their owner's alone.
public enum FileSafety {
    /// Creates an empty file readable and writable by its owner only (0600), so SQLite's WAL and
    /// shared-memory files, which copy the database file's mode, are private too. Does nothing
    /// when the file exists; returns whether this call created it.
    @discardableResult
    package static func createPrivateFile(at path: String) throws -> Bool {
        guard !FileManager.default.fileExists(atPath: path) else { return false }
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            // Another process created it first: that is fine, it is the same file either way.
            if errno == EEXIST { return false }
            throw KernelError.storage("\(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        return true
    }

    /// Creates `path` (which must not exist) with mode 0600 from the first byte (FileManager sets
    /// permissions only after writing), writes `data` and waits for the disk.
    public static func writePrivateFile(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw KernelError.fileExists(path) }
            throw KernelError.storage("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let written = data.withUnsafeBytes { bytes in bytes.baseAddress.map { write(descriptor, $0, bytes.count) } ?? 0 }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced else {
            unlink(path)
            throw KernelError.storage("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Waits until `path` (a file, or a folder after a rename in it) is on the disk, so a power
    /// cut cannot leave a name that points at unwritten data.
    package static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw KernelError.storage("\(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // A folder whose file system cannot sync it (EINVAL) has nothing more to wait for.
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw KernelError.storage("\(path): \(String(cString: strerror(errno)))") }
    }

    /// The file's permission bits when group or others may read or write it; nil when private or absent.
    public static func exposedMode(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let mode = status.st_mode & 0o777
        return mode & 0o077 == 0 ? nil : mode
    }

    /// `0644`, as `ls -l` users and `chmod` read it.
    package static func octal(_ mode: mode_t) -> String {
        "0" + String(mode, radix: 8)
    }

    /// Whether this process may write the file (false for a read-only copy or mount).
    package static func isWritable(_ path: String) -> Bool {
        access(path, W_OK) == 0
    }
}
