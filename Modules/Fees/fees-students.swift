import Core
import Students

/// A student as fees needs them: id, GR number and name.
struct FeesStudent: Sendable, Equatable {
    let id: String
    let grNumber: String
    let name: String

    init(_ student: Student) {
        id = student.id
        grNumber = student.grNumber
        name = "\(student.givenName) \(student.surname)"
    }
}

/// Which students a fees read reaches: the whole school for accountants and admins, a
/// guardian's children, a student themself where the school allows it. Anyone else's child
/// is answered exactly like a student that does not exist.
enum FeesStudents {
    /// The student named (id or GR number), or for a student or a guardian with one child, their own.
    static func visible(_ reference: String?, childOnly: Bool = false, _ context: ActionContext) throws -> FeesStudent {
        try requireStudentsMaySee(context)
        if childOnly && context.scope != .linkedChildren { throw FeesError.unknownStudent(reference ?? "") }
        do {
            if let reference { return FeesStudent(try Roster.visibleStudent(reference: reference, context)) }
            guard [.ownRecord, .linkedChildren].contains(context.scope) else { throw FeesError.chooseStudent }
            return FeesStudent(try Roster.ownStudent(context))
        } catch StudentsError.unknownStudent {
            throw FeesError.unknownStudent(reference ?? "")
        } catch StudentsError.chooseChild(let children) {
            throw FeesError.chooseChild(children.joined(separator: "، "))
        }
    }

    /// Everyone the caller may see, for a guardian's list of children.
    static func visibleAll(_ context: ActionContext) throws -> [FeesStudent] {
        try requireStudentsMaySee(context)
        return try Roster.visibleStudents(context).map(FeesStudent.init)
    }

    /// Any student of the school, for the accountant's writes (their grant is school-wide).
    static func any(_ reference: String, _ context: ActionContext) throws -> FeesStudent {
        do {
            return FeesStudent(try Roster.student(reference: reference, context))
        } catch StudentsError.unknownStudent {
            throw FeesError.unknownStudent(reference)
        }
    }

    static func requireStudentsMaySee(_ context: ActionContext) throws {
        if context.scope == .ownRecord, try !context.setting(FeesSettings.studentsSeeBalance) { throw FeesError.studentsMayNotSee }
    }
}
