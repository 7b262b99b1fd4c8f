import Foundation
import Mustache
import HogwartsKernel

/// A page a module adds to the web console, served at `/m/<module>/<path>`.
///
/// The shell lists it in the menu of everyone whose role holds `permission`, and only where the
/// module is on for their school. The page itself only decodes the form, runs the module's
/// actions through `ConsoleRequest.run` (so the kernel checks scope, audits and validates) and
/// renders the answer: no domain rule lives in a page.
public struct ConsolePage: Sendable {
    public let path: String
    public let title: LocalizedText
    public let permission: Permission
    /// The reaches of `permission` the page is for (a teacher's `ownClasses`), nil for every holder:
    /// a page that would only refuse a student or a guardian stays out of their menu.
    public let scopes: Set<AccessScope>?
    /// False for pages reached only through a link (a register opened from a lesson).
    public let inMenu: Bool
    /// A count its menu entry shows (unread notifications), nil for none.
    public let badge: ConsoleBadge?
    public let handler: @Sendable (ConsoleRequest) async throws -> ConsoleResponse

    public init(_ path: String, title: LocalizedText, permission: Permission, scopes: Set<AccessScope>? = nil, inMenu: Bool = true,
                badge: ConsoleBadge? = nil, handler: @escaping @Sendable (ConsoleRequest) async throws -> ConsoleResponse) {
        self.path = path
        self.title = title
        self.permission = permission
        self.scopes = scopes
        self.inMenu = inMenu
        self.badge = badge
        self.handler = handler
    }
}

/// A card a module adds to the dashboard of everyone whose role holds `permission`.
/// `render` answers nil when it has nothing to say to this person (a teacher with no lesson today).
public struct ConsoleCard: Sendable {
    public let id: String
    public let title: LocalizedText
    public let permission: Permission
    public let render: @Sendable (ConsoleRequest) async throws -> ConsoleHTML?

    public init(_ id: String, title: LocalizedText, permission: Permission,
                render: @escaping @Sendable (ConsoleRequest) async throws -> ConsoleHTML?) {
        self.id = id
        self.title = title
        self.permission = permission
        self.render = render
    }
}

/// What a page answers: a page for the shell's layout, or a redirect after a form (303, so a
/// reload never sends the form again).
public enum ConsoleResponse: Sendable {
    case page(title: String, body: ConsoleHTML)
    case redirect(String)
}

/// HTML the console trusts: made by a template, whose values are escaped, or by the shell.
public struct ConsoleHTML: Sendable, CustomStringConvertible {
    public let html: String

    init(trusted html: String) { self.html = html }

    public var description: String { html }

    /// Trusted parts one after another (a page's optional sections).
    public static func joined(_ parts: [ConsoleHTML]) -> ConsoleHTML { ConsoleHTML(trusted: parts.map(\.html).joined(separator: "\n")) }

    /// Text shown as text: every markup character escaped.
    public static func text(_ text: String) -> ConsoleHTML { ConsoleHTML(trusted: escape(text)) }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

/// A mustache template, parsed once. Values are HTML-escaped; `{{{name}}}` inserts a
/// `ConsoleHTML` (a card, a chart) as it is. A template that does not parse renders its error,
/// which the module's console tests show at once.
public struct ConsoleTemplate: Sendable {
    private let parsed: Result<MustacheTemplate, ParseFailure>

    struct ParseFailure: Error, Sendable {
        let message: String
    }

    public init(_ text: String) {
        do {
            parsed = .success(try MustacheTemplate(string: text))
        } catch {
            parsed = .failure(ParseFailure(message: "\(error)"))
        }
    }

    /// Renders with `values`: strings, numbers, booleans, arrays and dictionaries of them, and
    /// `ConsoleHTML` for trusted markup.
    public func render(_ values: [String: Any]) -> ConsoleHTML {
        switch parsed {
        case .success(let template): ConsoleHTML(trusted: template.render(Self.prepare(values)))
        case .failure(let failure): ConsoleHTML.text("template error: \(failure.message)")
        }
    }

    /// `ConsoleHTML` becomes its text, which `{{{ }}}` inserts unescaped; every text becomes a
    /// `Text`, so an empty one is false in a section (`{{#error}}...{{/error}}`).
    private static func prepare(_ value: Any) -> Any {
        switch value {
        case let html as ConsoleHTML: Text(html.html)
        case let text as String: Text(text)
        case let dictionary as [String: Any]: dictionary.mapValues(prepare)
        case let array as [[String: Any]]: array.map { $0.mapValues(prepare) }
        case let array as [Any]: array.map(prepare)
        default: value
        }
    }
}

/// A text value in a template: renders as itself, and counts as absent in a section when empty.
private struct Text: MustacheCustomRenderable, CustomStringConvertible {
    let value: String
    init(_ value: String) { self.value = value }
    var description: String { value }
    var renderText: String { value }
    var isNull: Bool { value.isEmpty }
}
