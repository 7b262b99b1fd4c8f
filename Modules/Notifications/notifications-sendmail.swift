import Foundation

/// Hands a message to the system's mail transfer agent through the `sendmail` interface every
/// one of them offers (exim4, opensmtpd, postfix, or msmtp for a relay with STARTTLS and AUTH).
/// The agent queues, retries and speaks SMTP; the platform only writes the message. The command
/// is the server's, never a school's setting: `HOGWARTS_SENDMAIL`, words separated by spaces.
struct Sendmail {
    static let defaultCommand = "/usr/sbin/sendmail -t -oi"
    /// A agent that has not taken the message by then is given up on; the entry is retried.
    static let timeout: TimeInterval = 30

    let arguments: [String]

    static var configured: Sendmail {
        let text = ProcessInfo.processInfo.environment["HOGWARTS_SENDMAIL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultCommand
        return Sendmail(arguments: text.split(separator: " ").map(String.init))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// An agent that exits before reading the whole message (a wrong command, a full disk) closes
    /// the pipe under our write. The default answer to that is SIGPIPE, which ends the whole
    /// server; ignored, the write fails with EPIPE and only this entry is retried.
    private static let pipeSignalIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    func send(_ message: String) throws {
        Self.pipeSignalIgnored
        guard let executable = arguments.first else { throw Failure(description: "HOGWARTS_SENDMAIL is empty") }
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = Array(arguments.dropFirst())
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(executable): \(error.localizedDescription)")
        }
        try? input.fileHandleForWriting.write(contentsOf: Data(message.utf8))
        try? input.fileHandleForWriting.close()
        guard ended.wait(timeout: .now() + Self.timeout) == .success else {
            process.terminate()
            throw Failure(description: "\(executable) took no message within \(Int(Self.timeout)) s")
        }
        let said = String(decoding: (try? errors.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) exited \(process.terminationStatus): \(said.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300))")
        }
    }
}
