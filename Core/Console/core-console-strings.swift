import Foundation
import HogwartsKernel

/// The console shell's own words, in `Core/Resources/console/ar.json` and `en.json` (beside the
/// kernel's catalog, not in it, so the console can be read and changed on its own).
public enum ConsoleStrings {
    public static let catalog: StringCatalog = {
        func table(_ language: Language) -> [String: String] {
            guard let url = Bundle.module.url(forResource: language.rawValue, withExtension: "json", subdirectory: "Resources/console"),
                  let data = try? Data(contentsOf: url),
                  let table = (try? JSONSerialization.jsonObject(with: data)) as? [String: String]
            else { return [:] }
            return table
        }
        return StringCatalog(ar: table(.ar), en: table(.en))
    }()
}
