import Attendance
import Core
import Foundation
import HogwartsTestSupport
import Testing

/// The Ed-Fi export as an ODS/API takes it: each event with the references its resource requires.
@Suite("Attendance as Ed-Fi ODS/API events")
struct AttendanceEdFiEventsTests {
    @Test("refused until the school has an Ed-Fi schoolId; then each whole-day record is a school event with school, session and student references, each period's record a section event")
    func events() throws {
        let fixture = try AttendanceFixture()
        #expect(throws: EdFiSchoolUnset.self) { try fixture.run(ExportEdFiEvents.self, .init(classCode: "7A")) }
        _ = try fixture.harness.kernel.setSetting("attendance.ed-fi-school-id", to: "255901", for: fixture.school.id, by: .localOperator)
        try fixture.run(TakeAttendance.self, .init(classCode: "7A", date: "2026-11-22", period: "P1", marks: [AttendanceMark(student: "GR-0003", status: .absent)]))
        let output = try fixture.run(ExportEdFiEvents.self, .init(classCode: "7A", from: "2026-11-19", to: "2026-11-22"))
        let csvRows = try fixture.run(ExportEdFi.self, .init(classCode: "7A", from: "2026-11-19", to: "2026-11-22"))
        #expect(output.studentSchoolAttendanceEvents.count + output.studentSectionAttendanceEvents.count + output.leftOut == csvRows.count)
        let absent = try #require(output.studentSectionAttendanceEvents.first { $0.studentReference.studentUniqueId == "GR-0003" && $0.eventDate == "2026-11-22" })
        #expect(absent.attendanceEventCategoryDescriptor == "uri://ed-fi.org/AttendanceEventCategoryDescriptor#Unexcused Absence")
        let reference = absent.sectionReference
        #expect(reference.localCourseCode == "7A" && reference.sectionIdentifier == "7A-P1")
        #expect(reference.schoolId == 255901 && reference.schoolYear == 2027 && reference.sessionName == "Term 1")
        for event in output.studentSchoolAttendanceEvents {
            #expect(event.schoolReference.schoolId == 255901)
            let session = event.sessionReference
            #expect(session.schoolId == 255901 && session.schoolYear == 2027 && session.sessionName == "Term 1")
        }
        // The resource's field names, exactly as the ODS/API documents them.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(absent)) as? [String: Any] ?? [:]
        #expect(Set(json.keys) == ["attendanceEventCategoryDescriptor", "eventDate", "sectionReference", "studentReference"])
        let section = json["sectionReference"] as? [String: Any] ?? [:]
        #expect(Set(section.keys) == ["localCourseCode", "schoolId", "schoolYear", "sectionIdentifier", "sessionName"])
        #expect(section["schoolId"] as? Int == 255901 && section["schoolYear"] as? Int == 2027)
    }
}
