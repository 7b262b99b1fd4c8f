import Core
import Foundation

/// A year of fees: tuition each term, monthly transport and books once, charged to every
/// enrolled student. Most families have paid what is due so far, some part of it, a few nothing
/// (overdue). Payments fall a few days after each due date, never after today.
enum FeesDemo {
    static func seed(_ context: ActionContext, size: DemoSize) throws {
        var random = DemoRandom(seed: size == .full ? 41 : 43)
        guard let year = try? FeesSchoolYear.named(nil, context) else { return }
        let books = year.startsOn.adding(days: 14)
        _ = try AddFeeStructure().perform(.init(name: context.localizer("fees.demo.structure"), schoolYear: year.id, target: .school, items: [
            FeeItem(type: .tuition, label: context.localizer("fees.demo.tuition"), amount: "1500.00", schedule: .perTerm),
            FeeItem(type: .transport, label: context.localizer("fees.demo.transport"), amount: "120.00", schedule: .monthly, dueOn: year.startsOn.description),
            FeeItem(type: .books, label: context.localizer("fees.demo.books"), amount: "300.00", schedule: .once, dueOn: books.description),
        ]), in: context)
        _ = try GenerateInvoices().perform(.init(schoolYear: year.id), in: context)

        let today = context.today
        var planned: [(day: CivilDate, student: String, amount: Int, method: FeePaymentMethod)] = []
        let students = try context.database.fetchAll("SELECT DISTINCT student_id FROM fees_invoices WHERE school_id = :school_id ORDER BY student_id")
        for row in students {
            let studentID = row.string("student_id")
            let roll = random.next() % 100
            guard roll >= 8 else { continue } // a few pay nothing: overdue
            let method = FeePaymentMethod.allCases[Int(random.next() % UInt64(FeePaymentMethod.allCases.count))]
            for invoice in try FeesLedger.invoices(of: studentID, context) {
                guard let due = CivilDate(invoice.dueOn), due <= today else { continue }
                let day = min(due.adding(days: Int(random.next() % 10)), today)
                let amount = roll < 20 ? invoice.amountMinor / 2 : invoice.amountMinor // some pay part
                if amount > 0 { planned.append((day, studentID, amount, method)) }
            }
        }
        for payment in planned.sorted(by: { ($0.day, $0.student) < ($1.day, $1.student) }) {
            _ = try RecordFeePayment.record(studentID: payment.student, amount: payment.amount, method: payment.method, reference: nil, first: nil,
                                            on: payment.day, context)
        }
    }
}
