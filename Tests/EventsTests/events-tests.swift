import Auth
import Core
@testable import Events
import Foundation
import Grades
import HogwartsTestSupport
import Students
import Testing
import Timetable

@Suite("Events module")
struct EventsTests {
    @Test("every string exists in Arabic and English, and the tables declared are those created")
    func stringsAndTables() {
        #expect(EventsModule().strings.text("events.module.name", in: .en) != nil)
        #expect(EventsModule().strings.missingTranslations.isEmpty)
        let mismatches = ModuleSchema.mismatches(of: EventsModule())
        #expect(mismatches.undeclared.isEmpty && mismatches.notCreated.isEmpty)
    }

    @Test("each question Events asks has the shape its provider answers")
    func queryShapes() throws {
        func roundTrip<T: Codable & Equatable, U: Codable>(_ value: T, through: U.Type) throws {
            #expect(try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(try JSONDecoder().decode(U.self, from: try JSONEncoder().encode(value)))) == value)
        }
        #expect(ClosuresQuery.name == SchoolClosures.name && ExamDatesQuery.name == ExamDates.name)
        try roundTrip(ClosuresQuery.Request(from: "a", to: "b"), through: SchoolClosures.Request.self)
        try roundTrip(ClosuresQuery.Answer(closures: [.init(id: "i", name: "n", startsOn: "s", endsOn: "e")]), through: SchoolClosures.Answer.self)
        try roundTrip(ExamDatesQuery.Request(from: "a", to: "b"), through: ExamDates.Request.self)
        try roundTrip(ExamDatesQuery.Answer(exams: [.init(id: "i", classID: "c", subjectID: "s", title: "t", kind: "EXAM", date: "d")]),
                      through: ExamDates.Answer.self)
    }

    @Test("a calendar holds the school's events, the class's own, the holidays and the class's exams; never another class's")
    func calendarByPerson() throws {
        let school = try EventsFixture()
        try school.run(CreateEvent.self, .init(title: "Sports day", type: .sports, startsOn: "2026-11-25", startTime: "08:00", endTime: "12:00"), as: school.admin)
        try school.run(CreateEvent.self, .init(title: "Museum trip", type: .trip, startsOn: "2026-11-20", classCode: "7A"), as: school.teacher)
        #expect(try school.titles(as: school.student) == ["Museum trip", "Sports day", "Mid-term break", "Maths exam 7A"])
        #expect(try school.titles(as: school.guardian) == ["Museum trip", "Sports day", "Mid-term break", "Maths exam 7A"])
        #expect(try school.titles(as: school.teacher) == ["Museum trip", "Sports day", "Mid-term break", "Maths exam 7A"])
        #expect(try school.titles(as: school.otherStudent) == ["Sports day", "Mid-term break", "Maths exam 7B"])
        #expect(try school.titles(as: school.staff) == ["Sports day", "Mid-term break"], "staff read no grades: no exam dates")
        #expect(try school.titles(as: school.admin) == ["Museum trip", "Sports day", "Mid-term break", "Maths exam 7A", "Maths exam 7B"])
        let elsewhere = school.harness.user(.admin, in: school.otherSchool)
        #expect(try school.run(ListCalendar.self, .init(from: EventsFixture.today, to: "2026-12-31"), as: elsewhere).isEmpty)
    }

    @Test("without Timetable and Grades, the calendar is the school's events alone")
    func standsAlone() throws {
        let school = try EventsFixture(modules: [AuthModule(), StudentsModule(), EventsModule()])
        try school.run(CreateEvent.self, .init(title: "Sports day", startsOn: "2026-11-25"), as: school.admin)
        #expect(try school.titles(as: school.student) == ["Sports day"])
    }

    @Test("another class's event, another school's and a made-up id are one refusal")
    func outOfScope() throws {
        let school = try EventsFixture()
        let trip = try school.run(CreateEvent.self, .init(title: "Museum trip", startsOn: "2026-11-20", classCode: "7A"), as: school.teacher)
        #expect(throws: EventsError.unknownEvent(trip.id)) { try school.run(ShowCalendarEntry.self, .init(id: trip.id), as: school.otherStudent) }
        #expect(throws: EventsError.unknownEvent(trip.id)) { try school.run(RegisterForEvent.self, .init(id: trip.id), as: school.otherStudent) }
        #expect(throws: EventsError.unknownEvent(trip.id)) {
            try school.run(ShowCalendarEntry.self, .init(id: trip.id), as: school.harness.user(.admin, in: school.otherSchool))
        }
    }

    @Test("seats go first come, first served; the rest wait and move up when someone leaves; twice is once")
    func registration() throws {
        let school = try EventsFixture()
        let trip = try school.run(CreateEvent.self, .init(title: "Trip", startsOn: "2026-11-20", classCode: "7A", registrationRequired: true, maxAttendees: 1),
                                  as: school.teacher)
        #expect(try school.run(RegisterForEvent.self, .init(id: trip.id), as: school.student) == .registered)
        #expect(try school.run(RegisterForEvent.self, .init(id: trip.id), as: school.student) == .registered)
        #expect(try school.run(RegisterForEvent.self, .init(id: trip.id), as: school.guardian) == .waitlisted)
        #expect(try school.run(ShowCalendarEntry.self, .init(id: trip.id), as: school.teacher).registrations == 2)
        try school.run(LeaveEvent.self, .init(id: trip.id), as: school.student)
        #expect(try school.run(ShowCalendarEntry.self, .init(id: trip.id), as: school.guardian).myRegistration == .registered)
        let holiday = try #require(try school.run(ListCalendar.self, .init(from: EventsFixture.today, to: "2026-12-31"), as: school.student).first { $0.type == .holiday })
        #expect(throws: EventsError.notOpenForRegistration(holiday.id)) { try school.run(RegisterForEvent.self, .init(id: holiday.id), as: school.student) }
    }

    @Test("a teacher adds events only for her classes; an organizer or administrator cancels; bad input writes nothing")
    func managing() throws {
        let school = try EventsFixture()
        #expect(throws: EventsError.notYourClass("7B")) { try school.run(CreateEvent.self, .init(title: "x", startsOn: "2026-11-20", classCode: "7B"), as: school.teacher) }
        #expect(throws: EventsError.notYourClass("")) { try school.run(CreateEvent.self, .init(title: "x", startsOn: "2026-11-20"), as: school.teacher) }
        #expect(throws: EventsError.endsBeforeStart) {
            try school.run(CreateEvent.self, .init(title: "x", startsOn: "2026-11-20", startTime: "10:00", endTime: "09:00"), as: school.admin)
        }
        #expect(throws: InputError("events.error.date", ["field": "starts_on", "value": "20/11/2026"])) {
            try school.run(CreateEvent.self, .init(title: "x", startsOn: "20/11/2026"), as: school.admin)
        }
        #expect(throws: InputError("events.error.time", ["field": "start_time", "value": "25:00"])) {
            try school.run(CreateEvent.self, .init(title: "x", startsOn: "2026-11-20", startTime: "25:00"), as: school.admin)
        }
        #expect(try school.titles(as: school.admin) == ["Mid-term break", "Maths exam 7A", "Maths exam 7B"], "nothing was written")
        let sports = try school.run(CreateEvent.self, .init(title: "Sports day", startsOn: "2026-11-25"), as: school.admin)
        #expect(throws: EventsError.notYours(sports.id)) { try school.run(CancelEvent.self, .init(id: sports.id), as: school.teacher) }
        try school.run(CancelEvent.self, .init(id: sports.id), as: school.admin)
        #expect(try school.run(ShowCalendarEntry.self, .init(id: sports.id), as: school.student).cancelled)
        #expect(throws: EventsError.notOpenForRegistration(sports.id)) { try school.run(RegisterForEvent.self, .init(id: sports.id), as: school.student) }
    }

    @Test("iCalendar text: CRLF lines folded at 75 octets without splitting Arabic, escaped values, all-day ends the day after")
    func iCalendarText() throws {
        let school = try EventsFixture()
        try school.run(CreateEvent.self, .init(title: "اليوم الرياضي; سباقات, وألعاب جماعية لجميع الصفوف في ملعب المدرسة الكبير", description: "Bring water\nand a hat", startsOn: "2026-11-25",
                                               endsOn: "2026-11-26", location: "Field, North"), as: school.admin)
        let entries = try school.run(ListCalendar.self, .init(from: EventsFixture.today, to: "2026-12-31"), as: school.student)
        let text = ICalendar.document(entries, school: school.harness.school, now: EventsFixture.moment)
        let physical = text.components(separatedBy: "\r\n").dropLast()
        #expect(physical.allSatisfy { $0.utf8.count <= 75 && !$0.contains("\n") && !$0.contains("\r") })
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") && text.hasSuffix("END:VCALENDAR\r\n"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("SUMMARY:اليوم الرياضي\\; سباقات\\, وألعاب جماعية لجميع الصفوف في ملعب المدرسة الكبير\r\n"))
        #expect(unfolded.contains("LOCATION:Field\\, North\r\n") && unfolded.contains("DESCRIPTION:Bring water\\nand a hat\r\n"))
        #expect(unfolded.contains("DTSTART;VALUE=DATE:20261125\r\nDTEND;VALUE=DATE:20261127\r\n"))
        #expect(unfolded.contains("SUMMARY:Maths exam 7A (7A)\r\n") && !unfolded.contains("7B"))
        #expect(unfolded.components(separatedBy: "BEGIN:VEVENT").count - 1 == entries.count)
    }
}
