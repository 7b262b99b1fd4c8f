import Core

/// Importing and exporting the whole roster is an administrator's job (it creates accounts and
/// reads every student). Redeeming a set-password code is for the person holding it, signed in
/// or not: the code is the proof.
public enum OneRosterPermissions {
    public static let importRoster: Permission = "oneroster.import"
    public static let exportRoster: Permission = "oneroster.export"
    public static let setPassword: Permission = "oneroster.set-password"

    static var definitions: [PermissionDefinition] {
        let everyone = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, AccessScope.ownRecord) })
        return [
            PermissionDefinition(importRoster, summary: LocalizedText(ar: "استيراد قائمة المدرسة من OneRoster", en: "Import the roster from OneRoster"),
                                 grants: .administrators),
            PermissionDefinition(exportRoster, summary: LocalizedText(ar: "تصدير قائمة المدرسة بصيغة OneRoster", en: "Export the roster as OneRoster"),
                                 grants: .administrators),
            PermissionDefinition(setPassword, summary: LocalizedText(ar: "تعيين كلمة المرور برمز لمرة واحدة", en: "Set a password with a one-time code"),
                                 grants: everyone),
        ]
    }
}
