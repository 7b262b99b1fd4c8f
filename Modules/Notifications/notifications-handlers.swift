import Core

/// Turns other modules' events into notifications. Each runs where Notifications is on.
enum NotificationHandlers {
    static var all: [EventHandler] {
        [
            EventHandler("notifications.absence", on: AbsenceRecorded.self, optional: true) { event, context in
                try Notifier.notify(try Notifier.familyOf(student: event.studentID, includeStudent: false, context), type: .attendanceAlert, priority: .high,
                                    titleKey: "notifications.absence.title", bodyKey: "notifications.absence.body",
                                    arguments: ["name": event.studentName, "date": event.date, "period": event.period, "class": event.classCode],
                                    link: "attendance:\(event.grNumber):\(event.date)", context)
            },
            EventHandler("notifications.excuse-decided", on: ExcuseOutcome.self, optional: true) { event, context in
                try Notifier.notify([event.submittedBy], type: .excuseDecided,
                                    titleKey: event.approved ? "notifications.excuse.approved.title" : "notifications.excuse.rejected.title",
                                    bodyKey: "notifications.excuse.body", arguments: ["student": event.grNumber, "date": event.date],
                                    link: "attendance-excuse:\(event.excuseID)", context)
            },
            EventHandler("notifications.results", on: AssessmentResults.self, optional: true) { event, context in
                var family: [String] = []
                for student in event.studentIDs { family += try Notifier.familyOf(student: student, includeStudent: true, context) }
                try Notifier.notify(family, type: .resultsPublished, titleKey: "notifications.results.title", bodyKey: "notifications.results.body",
                                    arguments: ["title": event.title, "subject": event.subjectCode, "class": event.classCode],
                                    link: "grades:\(event.assessmentCode)", context)
            },
            EventHandler("notifications.report-card", on: ReportCardReady.self, optional: true) { event, context in
                try Notifier.notify(try Notifier.familyOf(student: event.studentID, includeStudent: true, context), type: .reportCardPublished,
                                    titleKey: "notifications.report-card.title", bodyKey: "notifications.report-card.body",
                                    arguments: ["student": event.grNumber, "term": event.term], link: "report-card:\(event.grNumber):\(event.term)", context)
            },
            EventHandler("notifications.message", on: MessageArrived.self, optional: true) { event, context in
                let announcement = event.kind == "ANNOUNCEMENT"
                try Notifier.notify(event.recipients, type: announcement ? .announcement : .message,
                                    titleKey: announcement ? "notifications.announcement.title" : "notifications.message.title",
                                    bodyKey: "notifications.message.body",
                                    arguments: ["sender": event.senderName, "title": event.conversationTitle, "preview": event.preview],
                                    link: "conversation:\(event.conversationID)", context)
            },
            EventHandler("notifications.announcement", on: AnnouncementPosted.self, optional: true) { event, context in
                try Notifier.notify(event.recipients, type: .announcement, priority: NotificationPriority(rawValue: event.priority.uppercased()) ?? .normal,
                                    titleKey: "notifications.announcement.title", bodyKey: "notifications.announcement.body",
                                    arguments: ["title": event.title, "sender": event.authorName],
                                    link: "announcement:\(event.announcementID)", context)
            },
            EventHandler("notifications.fee-reminder", on: FeeReminder.self, optional: true) { event, context in
                let overdue = event.kind == "overdue"
                try Notifier.notify(event.recipients, type: .feeReminder, priority: overdue ? .high : .normal,
                                    titleKey: overdue ? "notifications.fee-overdue.title" : "notifications.fee-upcoming.title",
                                    bodyKey: overdue ? "notifications.fee-overdue.body" : "notifications.fee-upcoming.body",
                                    arguments: ["name": event.studentName, "amount": event.amount, "date": event.dueOn,
                                                "items": event.items.joined(separator: ", ")],
                                    link: "fees:\(event.grNumber)", context)
            },
            AccountMail.handler,
        ]
    }
}
