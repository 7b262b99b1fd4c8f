/// Keys in snake_case, by the rule of Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`
/// (`sectionId` → `section_id`, `myURLProperty` → `my_url_property`), so answers and error
/// messages name fields as the coders always have.
package enum SnakeCaseKeys {
    /// Splits where Foundation splits (by characters, a character's class being its first
    /// scalar's), so names with combining marks come out the same too.
    package static func convert(_ key: String) -> String {
        // Most keys are spelled out in snake_case already: nothing to split.
        guard key.unicodeScalars.contains(where: isUpper) else { return key }
        let characters = Array(key)
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = characters[min(searchStart, characters.count)...].firstIndex(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = characters[upper...].firstIndex(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                // One capital then lower case: the capital starts the next word.
                wordStart = upper
            } else {
                // A run of capitals is a word of its own, but for the last, which starts the next.
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<characters.count)
        return words.map { String(characters[$0]).lowercased() }.joined(separator: "_")
    }

    private static func isUpper(_ character: Character) -> Bool {
        character.unicodeScalars.first.map(isUpper) ?? false
    }

    private static func isLower(_ character: Character) -> Bool {
        character.unicodeScalars.first.map(isLower) ?? false
    }

    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    private static func isLower(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .lowercaseLetter
    }
}
