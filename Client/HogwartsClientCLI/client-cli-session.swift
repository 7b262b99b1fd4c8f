import ArgumentParser
import Foundation
import HogwartsClient

struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign in to a school's server (password from standard input), then take a first copy.")

    @OptionGroup var options: ClientOptions
    @Option(help: "The server's address, e.g. https://school.example.org.") var server: String
    @Option(help: "Your email.") var email: String
    @Option(help: "The school's id, when your email has accounts in several schools.") var school: String?

    func run() async throws {
        try await options.run {
            let password = readLine(strippingNewline: true) ?? ""
            if password.isEmpty { throw ClientError.invalidInput(field: "password", reason: "give it on standard input") }
            let client = try await options.client(server: server)
            let user = try await client.signIn(identifier: email, password: password, schoolID: school)
            say("Signed in as \(user.email) (\(user.role)) at \(server).")
            let report = try await client.sync()
            say(SyncText.summary(report))
        }
    }
}

struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Forget the tokens; the local copy and the queue stay.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            try await options.client().signOut()
            say("Signed out. Queued changes are kept for your next sign-in.")
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Who is signed in, where, and how much is queued.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            let client = try await options.client()
            guard let session = try await client.session() else { throw ClientError.notSignedIn }
            let outbox = try await client.outbox()
            let failed = try await client.failed()
            say("\(session.user.email) (\(session.user.role)) at \(session.server)")
            say("client \(session.clientID); acknowledged through \(try await client.lastAcknowledgedSeq())")
            say("queued \(outbox.count) (waiting \(outbox.filter { $0.state == .waiting }.count)), failed \(failed.count)")
        }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Send the queue in order, then bring the server's changes.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            let report = try await options.client().sync()
            say(SyncText.summary(report))
            if report.waiting != nil { throw ExitCode(75) }
        }
    }
}

struct Pull: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the server's changes only (the queue is not sent).")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            let report = try await options.client().pull()
            say(SyncText.summary(report))
        }
    }
}

struct Outbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "What is queued (in sending order) and what failed, with the server's reasons.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            let client = try await options.client()
            let pending = try await client.outbox()
            let failed = try await client.failed()
            say("Queued (\(pending.count)):")
            for mutation in pending {
                let state = mutation.state == .waiting ? "WAITING — retry with `hogwarts-client retry \(mutation.seq)`" : "pending"
                say("  #\(mutation.seq) \(mutation.name) \(SyncText.brief(mutation.args)) [\(state)]\(mutation.lastError.map { " last error: \($0)" } ?? "")")
            }
            say("Failed (\(failed.count)):")
            for mutation in failed {
                say("  #\(mutation.seq) \(mutation.name) \(SyncText.brief(mutation.args)): \(mutation.code ?? "?") \(mutation.message ?? "")")
            }
        }
    }
}

struct Retry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Queue a failed change again (a new number, at the end), or resume a waiting one; then sync.")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The change's number from `outbox`, or `all`.") var target: String

    func run() async throws {
        try await options.run {
            let client = try await options.client()
            if target == "all" {
                try await client.retryAll()
            } else if let seq = Int64(target) {
                try await client.retry(seq: seq)
            } else {
                throw ClientError.invalidInput(field: "target", reason: "'\(target)' is neither a number from `outbox` nor `all`")
            }
            let report = try await client.sync()
            say(SyncText.summary(report))
        }
    }
}

enum SyncText {
    static func summary(_ report: SyncReport) -> String {
        var parts = ["sent \(report.acknowledged)", "pulled \(report.changesPulled) changes", "queued \(report.pending)"]
        if !report.rejected.isEmpty { parts.append("failed \(report.rejected.count) (see `hogwarts-client outbox`)") }
        if let reset = report.resetReason { parts.append("fresh copy (\(reset))") }
        var text = parts.joined(separator: ", ")
        if let waiting = report.waiting {
            text += "\nWaiting to sync: #\(waiting.seq) \(waiting.name) — \(report.waitingReason ?? ""). Run `hogwarts-client sync` or `retry \(waiting.seq)` later."
        }
        if let error = report.pullError { text += "\nNot pulled: \(error.message(.en))" }
        return text
    }

    /// A mutation's arguments on one line, short.
    static func brief(_ args: JSONValue) -> String {
        let text = (try? args.text()) ?? ""
        return text.count > 100 ? String(text.prefix(97)) + "..." : text
    }
}
