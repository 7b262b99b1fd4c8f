import Core
import Foundation

extension Roster {
    /// The student (not archived) whose own sign-in account is `accountID`, if any: for a module
    /// that shows a person's own record (an ID card), whoever asks; callers check who may see it.
    public static func student(accountID: String, _ context: ActionContext) throws -> Student? {
        try context.published(by: StudentsModule.moduleID) {
            try context.database.fetchOne(
                "\(studentSelect) WHERE s.school_id = :school_id AND s.user_id = :account AND s.archived_at IS NULL ORDER BY s.gr_number LIMIT 1",
                ["account": .text(accountID), "year": SQLValue(try currentSchoolYearID(context))]).map(Student.init(row:))
        }
    }
}
