import Core

/// Who may open their own card, and who may check someone else's at the gate or the classroom door.
public enum IdCardsPermissions {
    /// One's own card: students and the school's staff (guardians have no card).
    public static let own: Permission = "id-cards.own"
    /// Checking a card's QR payload: the school's staff.
    public static let verify: Permission = "id-cards.verify"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(own, summary: LocalizedText(ar: "عرض بطاقة الهوية المدرسية الخاصة بك", en: "See one's own school ID card"),
                                 grants: [.developer: .ownRecord, .admin: .ownRecord, .teacher: .ownRecord, .staff: .ownRecord,
                                          .accountant: .ownRecord, .student: .ownRecord]),
            PermissionDefinition(verify, summary: LocalizedText(ar: "التحقق من بطاقة هوية مدرسية", en: "Check a school ID card"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .school, .staff: .school]),
        ]
    }
}
