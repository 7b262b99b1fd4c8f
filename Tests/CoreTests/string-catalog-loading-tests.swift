@testable import Core
import Foundation
import Testing

@Suite("String catalogs as read at start")
struct StringCatalogLoadingTests {
    /// Core's catalog files as shipped, from the source tree.
    static let coreFiles: [URL] = Language.allCases.map {
        URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Core/Kernel/Resources/strings/\($0.rawValue).json").standardizedFileURL
    }

    @Test("the catalog reader reads every shipped kernel catalog exactly as Foundation's JSON parser does")
    func sameAsFoundation() throws {
        for file in Self.coreFiles {
            let data = try Data(contentsOf: file)
            let foundation = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
            #expect(FlatJSON.strings(data) == foundation, "\(file.lastPathComponent)")
        }
    }

    @Test("escapes, Arabic text and characters beyond the basic plane come through")
    func escapes() {
        let json = #"{ "a.quote": "say \"hi\"\n\tnow", "a.arabic": "مرحبًا {name}", "a.unicode": "\u00e9\ud83d\ude00\/" }"#
        #expect(FlatJSON.strings(Data(json.utf8)) == ["a.quote": "say \"hi\"\n\tnow", "a.arabic": "مرحبًا {name}", "a.unicode": "é😀/"])
        #expect(FlatJSON.strings(Data("{}".utf8)) == [:])
    }

    @Test("a file that is not a flat object of strings reads as nothing (the completeness tests then name it)",
          arguments: [#"{"a": 1}"#, #"{"a": {"b": "c"}}"#, #"{"a": "b""#, #"{"a": "b"} x"#, #"{"a": "\q"}"#, #"{"a": "\ud83d"}"#, "[]", ""])
    func malformed(json: String) {
        #expect(FlatJSON.strings(Data(json.utf8)) == nil)
    }

    @Test("a merged catalog answers in both languages, the later catalog winning a clash")
    func mergedCatalogAnswersBothLanguages() {
        let merged = StringCatalog(ar: ["a.one": "واحد"], en: ["a.one": "one"])
            .merging(StringCatalog(ar: ["b.two": "اثنان"], en: ["b.two": "two", "a.one": "ONE"]))
        #expect(merged.text("a.one", in: .en) == "ONE", "the later catalog wins a clash")
        #expect(merged.text("b.two", in: .ar) == "اثنان")
        #expect(merged.text("a.one", in: .ar) == "واحد")
        #expect(Localizer(language: .ar, catalog: CoreResources.catalog)("kernel.error.storage", ["detail": "x"]).contains("x"))
    }
}
