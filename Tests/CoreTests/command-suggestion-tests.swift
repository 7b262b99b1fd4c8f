@testable import Core
import Testing

@Suite("Did you mean: command names")
struct CommandSuggestionTests {
    @Test("edits count insertions, deletions, replacements and swapped neighbours")
    func distance() {
        #expect(CommandSuggestion.distance("studnets", "students") == 1)
        #expect(CommandSuggestion.distance("kitten", "sitting") == 3)
        #expect(CommandSuggestion.distance("", "serve") == 5)
        #expect(CommandSuggestion.distance("grades", "grades") == 0)
    }

    @Test("the nearest name is suggested only when it is near enough to be a typo")
    func closest() {
        let names = ["students", "settings", "serve", "school", "grades", "demo"]
        #expect(CommandSuggestion.closest(to: "studnets", among: names) == "students")
        #expect(CommandSuggestion.closest(to: "Grades", among: names) == "grades")
        #expect(CommandSuggestion.closest(to: "srve", among: names) == "serve")
        #expect(CommandSuggestion.closest(to: "xyzzy", among: names) == nil)
        #expect(CommandSuggestion.closest(to: "dmo", among: ["demo"]) == "demo")
        #expect(CommandSuggestion.closest(to: "do", among: ["demo"]) == nil)
    }

    @Test("argument-parser's sentences map to catalog messages; a command's own message is left alone")
    func translated() {
        #expect(ArgumentErrors.translated("Unknown option '--clas'. Did you mean '--class'?")?.messageArguments == ["option": "--clas", "suggestion": "--class"])
        #expect(ArgumentErrors.translated("2 unexpected arguments: 'a', 'b'")?.messageKey == "kernel.argument-error.unexpected-arguments")
        #expect(ArgumentErrors.translated("The value 'x' is invalid for '--limit <limit>'. Please provide one of 'a' and 'b'.")?.messageArguments
            == ["value": "x", "option": "--limit <limit>"])
        #expect(ArgumentErrors.translated("اللغة fr غير مدعومة.") == nil)
    }
}
