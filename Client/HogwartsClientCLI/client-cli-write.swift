import ArgumentParser
import Foundation
import HogwartsClient

/// Writes: each one is queued with its effect shown at once, then sent if the server answers.
struct AttendanceCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "attendance", abstract: "Take attendance (queued; works offline).",
                                                    subcommands: [TakeAttendanceCommand.self])
}

struct TakeAttendanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "take", abstract: "Take a class's register: everyone present unless listed.")
    @OptionGroup var options: ClientOptions
    @Option(help: "The class (code, name or id).") var `class`: String
    @Option(help: "The day, YYYY-MM-DD (default: today on this machine).") var date: String?
    @Option(help: "The period (default: the whole day).") var period: String?
    @Option(help: "GR numbers absent, comma-separated.") var absent: String?
    @Option(help: "GR numbers late, comma-separated.") var late: String?
    @Option(help: "GR numbers excused, comma-separated.") var excused: String?
    @Flag(help: "Queue only; do not try to send now.") var offline = false

    func run() async throws {
        try await options.run {
            let client = try await options.client()
            guard let found = try ClientQueries.findClass(`class`, in: try await client.entities("class")) else { throw ClientError.unknownClass(`class`) }
            // The day is pinned now: sent tomorrow, it must still be today's register.
            let day = try ClientDates.day(date)
            var marks: [JSONValue] = []
            var seen: Set<String> = []
            for (list, status) in [(absent, "ABSENT"), (late, "LATE"), (excused, "EXCUSED")] {
                for gr in (list ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !gr.isEmpty {
                    guard seen.insert(gr).inserted else { throw ClientError.invalidInput(field: "GR \(gr)", reason: "listed twice") }
                    marks.append(["student": .string(gr), "status": .string(status)])
                }
            }
            let code = found.text("code").isEmpty ? `class` : found.text("code")
            let args: JSONValue = ["classCode": .string(code), "date": .string(day), "period": period.map(JSONValue.string) ?? .null,
                                   "defaultStatus": "PRESENT", "marks": .array(marks)]
            let seq = try await client.enqueue(name: "attendance.take@1", args: args)
            say("Queued #\(seq): \(code) on \(day), \(marks.count) marked, the rest present.")
            if !offline { try await sendNow(client) }
        }
    }
}

struct MessageCommands: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "message", abstract: "Send messages (queued; works offline).",
                                                    subcommands: [SendMessageCommand.self])
}

struct SendMessageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Send a message to a conversation.")
    @OptionGroup var options: ClientOptions
    @Option(help: "The conversation's id.") var conversation: String
    @Option(help: "The message.") var text: String
    @Flag(help: "Queue only; do not try to send now.") var offline = false

    func run() async throws {
        try await options.run {
            let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if body.isEmpty { throw ClientError.invalidInput(field: "text", reason: "empty") }
            let client = try await options.client()
            // The client id makes a resend the same message on the server.
            let id = UUID().uuidString.lowercased()
            let args: JSONValue = ["conversation": .string(conversation), "body": .string(body), "clientId": .string(id),
                                   "sentAt": .string(Date().formatted(.iso8601))]
            let seq = try await client.enqueue(name: "messages.send@1", args: args, id: id)
            say("Queued #\(seq) to \(conversation).")
            if !offline { try await sendNow(client) }
        }
    }
}

/// One attempt to send right after a write, without the retry waits: offline is normal here.
func sendNow(_ client: SyncClient) async throws {
    let fast = SyncClient(store: client.store, transport: client.transport, retryDelays: [])
    do {
        let report = try await fast.sync()
        if let waiting = report.waiting {
            // One quick try is not the retry schedule: the change stays plainly pending.
            try await fast.retry(seq: waiting.seq)
            say("Not sent yet (kept in the queue): \(report.waitingReason ?? "")")
        } else {
            say("Sent. " + SyncText.summary(report))
        }
    } catch let error as ClientError {
        say("Not sent yet (kept in the queue): \(error.message(.en))")
    }
}
