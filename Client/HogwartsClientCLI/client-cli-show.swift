import ArgumentParser
import Foundation
import HogwartsClient

/// Reads over the local copy: they work with no network, and mark what is not yet confirmed.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read the local copy (works offline; * = queued, not yet confirmed).",
                                                    subcommands: [ShowClasses.self, ShowStudents.self, ShowAttendance.self,
                                                                  ShowConversations.self, ShowMessages.self, ShowEntities.self])
}

extension LocalEntity {
    var mark: String { pending ? "*" : " " }
    func text(_ key: String) -> String { data[key]?.string ?? data[key].flatMap { try? $0.text() } ?? "" }
}

struct ShowClasses: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "classes", abstract: "Classes in your copy.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            for item in try await options.client().entities("class").sorted(by: { $0.text("code") < $1.text("code") }) {
                say("\(item.mark) \(item.text("code").isEmpty ? item.id : item.text("code"))\t\(item.text("name"))")
            }
        }
    }
}

struct ShowStudents: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "students", abstract: "Students in your copy, by GR number.")
    @OptionGroup var options: ClientOptions
    @Option(help: "Only this class (code, name or id).") var `class`: String?

    func run() async throws {
        try await options.run {
            let client = try await options.client()
            var students = try await client.entities("student")
            if let reference = `class` {
                guard let found = try ClientQueries.findClass(reference, in: try await client.entities("class")) else {
                    throw ClientError.unknownClass(reference)
                }
                students = students.filter { $0.text("classId") == found.id }
            }
            for student in students.sorted(by: { $0.text("grNumber") < $1.text("grNumber") }) {
                say("\(student.mark) \(student.text("grNumber"))\t\(student.text("name"))\t\(student.text("status"))")
            }
        }
    }
}

struct ShowAttendance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "attendance", abstract: "A class's register for a day, from your copy.")
    @OptionGroup var options: ClientOptions
    @Option(help: "The class (code, name or id).") var `class`: String
    @Option(help: "The day, YYYY-MM-DD (default: today).") var date: String?
    @Option(help: "The period (default: the whole day).") var period: String?

    func run() async throws {
        try await options.run {
            let client = try await options.client()
            guard let found = try ClientQueries.findClass(`class`, in: try await client.entities("class")) else { throw ClientError.unknownClass(`class`) }
            let day = try ClientDates.day(date)
            let students = Dictionary(try await client.entities("student").map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let records = try await client.entities("attendance.record").filter {
                $0.text("classId") == found.id && $0.text("date") == day && $0.data["period"]?.string == period
            }
            if records.isEmpty { say("No register for \(`class`) on \(day) in your copy.") }
            for record in records.sorted(by: { (students[$0.text("studentId")]?.text("grNumber") ?? "") < (students[$1.text("studentId")]?.text("grNumber") ?? "") }) {
                let student = students[record.text("studentId")]
                say("\(record.mark) \(student?.text("grNumber") ?? record.text("studentId"))\t\(student?.text("name") ?? "")\t\(record.text("status"))")
            }
        }
    }
}

struct ShowConversations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "conversations", abstract: "Your conversations.")
    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await options.run {
            for item in try await options.client().entities("conversation") {
                say("\(item.mark) \(item.id)\t\(item.text("kind"))\t\(item.text("title"))")
            }
        }
    }
}

struct ShowMessages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "messages", abstract: "A conversation's messages, oldest first.")
    @OptionGroup var options: ClientOptions
    @Option(help: "The conversation's id.") var conversation: String

    func run() async throws {
        try await options.run {
            let messages = try await options.client().entities("message").filter { $0.text("conversationId") == conversation }
            for message in messages.sorted(by: { ($0.text("sentAt"), $0.id) < ($1.text("sentAt"), $1.id) }) {
                let sender = message.text("senderName").isEmpty ? message.text("senderId") : message.text("senderName")
                say("\(message.mark) \(message.text("sentAt"))\t\(sender)\t\(message.text("body"))")
            }
        }
    }
}

struct ShowEntities: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "entities", abstract: "Any type in your copy as JSON lines (e.g. grades.result, profile).")
    @OptionGroup var options: ClientOptions
    @Argument(help: "The entity type.") var type: String

    func run() async throws {
        try await options.run {
            for item in try await options.client().entities(type) { say("\(item.mark) \(try item.data.text())") }
        }
    }
}

enum ClientDates {
    /// A day as given (checked), or today in this machine's zone.
    static func day(_ given: String?) throws -> String {
        guard let given else {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let parts = calendar.dateComponents([.year, .month, .day], from: Date())
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let pieces = given.split(separator: "-").map { Int($0) }
        guard pieces.count == 3, let month = pieces[1], let day = pieces[2], pieces[0] != nil, (1...12).contains(month), (1...31).contains(day),
              given.count == 10 else {
            throw ClientError.invalidInput(field: "date", reason: "'\(given)' is not a day like 2026-11-24")
        }
        return given
    }
}
