import Core

/// Who reads the calendar and who puts events on it. Everyone reads what is for them (the whole
/// school's events and their own or their children's classes'); administrators read every event.
/// Administrators add events for anyone; a teacher for a class she teaches.
public enum EventsPermissions {
    public static let read: Permission = "events.read"
    public static let manage: Permission = "events.manage"

    static var definitions: [PermissionDefinition] {
        [
            PermissionDefinition(read, summary: LocalizedText(ar: "قراءة تقويم المدرسة وفعالياتها والتسجيل فيها", en: "Read the school calendar and register for its events"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses, .staff: .ownRecord,
                                          .accountant: .ownRecord, .guardian: .linkedChildren, .student: .ownRecord]),
            PermissionDefinition(manage, summary: LocalizedText(ar: "إضافة فعالية أو إلغاؤها", en: "Add or cancel an event"),
                                 grants: [.developer: .school, .admin: .school, .teacher: .ownClasses]),
        ]
    }
}
