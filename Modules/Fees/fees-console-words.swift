import Core

/// The fees pages' words, in Arabic and English.
extension FeesConsole {
    enum Templates {}

    enum Words {
        static let financeTitle = LocalizedText(ar: "المالية", en: "Finance")
        static let balancesTitle = LocalizedText(ar: "الرسوم والأرصدة", en: "Fees and balances")
        static let recordPayment = LocalizedText(ar: "تسجيل دفعة", en: "Record a payment")
        static let recordPaymentFor = LocalizedText(ar: "تسجيل دفعة عن {name}", en: "Record a payment for {name}")
        static let openFinance = LocalizedText(ar: "فتح صفحة المالية", en: "Open the finance view")
        static let allBalances = LocalizedText(ar: "أرصدة جميع الطلاب", en: "Every student's balance")

        static let asOf = LocalizedText(ar: "جميع فواتير الأسر حتى يوم {date}.", en: "Every family's invoices, as of {date}.")
        static let invoiced = LocalizedText(ar: "الفواتير الصادرة:", en: "Invoiced:")
        static let paidNet = LocalizedText(ar: "المدفوع بعد خصم المبالغ المستردة:", en: "Paid, less refunds:")
        static let stillOwed = LocalizedText(ar: "المتبقي على الأسر:", en: "Still owed:")
        static let collectedToday = LocalizedText(ar: "المحصّل اليوم:", en: "Collected today:")
        static let paymentsCount = LocalizedText(ar: "({count} دفعة)", en: "({count} payments)")
        static let overdueTotal = LocalizedText(ar: "المتأخر:", en: "Overdue:")
        static let studentsCount = LocalizedText(ar: "(لدى {count} طالبًا)", en: "(from {count} students)")
        static let agedTitle = LocalizedText(ar: "المستحقات حسب مدة التأخر", en: "Receivables by how long overdue")
        static let notYetDue = LocalizedText(ar: "لم يحن موعدها", en: "Not yet due")
        static let days30 = LocalizedText(ar: "1-30 يومًا", en: "1-30 days")
        static let days60 = LocalizedText(ar: "31-60 يومًا", en: "31-60 days")
        static let days90 = LocalizedText(ar: "61-90 يومًا", en: "61-90 days")
        static let over90 = LocalizedText(ar: "أكثر من 90 يومًا", en: "Over 90 days")
        static let mostBehind = LocalizedText(ar: "الأكثر تأخرًا في السداد", en: "Furthest behind")
        static let nothingOverdue = LocalizedText(ar: "لا شيء متأخر.", en: "Nothing is overdue.")

        static let payIntro = LocalizedText(ar: "تُخصَّص الدفعة لأقدم الفواتير استحقاقًا أولًا، ويُعطى لها رقم إيصال.",
                                            en: "The payment goes to the oldest invoices first and gets a receipt number.")
        static let chooseMethod = LocalizedText(ar: "اختر طريقة الدفع من القائمة.", en: "Choose how it was paid from the list.")
        static let studentAndAmount = LocalizedText(ar: "اكتب رقم قيد الطالب والمبلغ.", en: "Enter the student's GR number and the amount.")
        static let savePayment = LocalizedText(ar: "حفظ الدفعة", en: "Save the payment")
        static let saved = LocalizedText(ar: "حُفظت الدفعة، إيصال رقم {receipt}.", en: "Payment saved, receipt {receipt}.")
        static let remindMe = LocalizedText(ar: "ذكّرني بهذه الرسوم قبل موعدها وعند تأخرها", en: "Remind me of these fees before they fall due and when they are overdue")
        static let remindHint = LocalizedText(ar: "تصل التذكيرات عبر قنوات الإشعارات التي اخترتها، لكل ابن على حدة.",
                                              en: "Reminders come through the notification channels you chose, for each child apart.")
        static let saveReminders = LocalizedText(ar: "حفظ", en: "Save")
        static let byClass = LocalizedText(ar: "حسب الفصل", en: "By class")
        static let classLabel = LocalizedText(ar: "الفصل", en: "Class")
        static let studentsLabel = LocalizedText(ar: "الطلاب", en: "Students")
        static let noClass = LocalizedText(ar: "بلا فصل هذا العام", en: "In no class this year")
        static let remindersOn = LocalizedText(ar: "ستصلك تذكيرات رسوم هذا الابن.", en: "You will be reminded of this child's fees.")
        static let remindersOff = LocalizedText(ar: "لن تصلك تذكيرات رسوم هذا الابن. يمكنك تشغيلها من هنا في أي وقت.",
                                                en: "No more fee reminders for this child. You can turn them back on here at any time.")

        static let balancesIntro = LocalizedText(ar: "افتح طالبًا لترى فواتيره ومدفوعاته.", en: "Open a student to see their invoices and payments.")
        static let chooseChild = LocalizedText(ar: "اختر أحد أبنائك لترى فواتيره ومدفوعاته.", en: "Choose one of your children to see their invoices and payments.")
        static let noBalances = LocalizedText(ar: "لا رسوم لعرضها.", en: "No fees to show.")
        static let statementOf = LocalizedText(ar: "كشف حساب {name}", en: "Statement for {name}")
        static let invoices = LocalizedText(ar: "الفواتير", en: "Invoices")
        static let noInvoices = LocalizedText(ar: "لا فواتير بعد.", en: "No invoices yet.")
        static let payments = LocalizedText(ar: "المدفوعات والمبالغ المستردة", en: "Payments and refunds")
        static let noPayments = LocalizedText(ar: "لا مدفوعات بعد.", en: "No payments yet.")

        static let student = LocalizedText(ar: "الطالب", en: "Student")
        static let grNumber = LocalizedText(ar: "رقم القيد", en: "GR number")
        static let owed = LocalizedText(ar: "المستحق كله", en: "Owed in all")
        static let charged = LocalizedText(ar: "المطلوب", en: "Charged")
        static let paidLabel = LocalizedText(ar: "المدفوع", en: "Paid")
        static let balance = LocalizedText(ar: "الرصيد المستحق", en: "Balance due")
        static let item = LocalizedText(ar: "البند", en: "Item")
        static let due = LocalizedText(ar: "تاريخ الاستحقاق", en: "Due")
        static let amount = LocalizedText(ar: "المبلغ", en: "Amount")
        static let outstanding = LocalizedText(ar: "المتبقي", en: "Outstanding")
        static let status = LocalizedText(ar: "الحالة", en: "Status")
        static let receipt = LocalizedText(ar: "الإيصال", en: "Receipt")
        static let day = LocalizedText(ar: "اليوم", en: "Day")
        static let kind = LocalizedText(ar: "النوع", en: "Kind")
        static let method = LocalizedText(ar: "طريقة الدفع", en: "Paid by")
        static let reference = LocalizedText(ar: "المرجع (رقم الشيك أو التحويل)", en: "Reference (cheque or transfer number)")

        static let lateFeeIncluded = LocalizedText(ar: "(منها رسوم تأخير {amount})", en: "(with a late fee of {amount})")

        static let pending = LocalizedText(ar: "لم يحن موعدها", en: "Not yet due")
        static let partial = LocalizedText(ar: "مدفوعة جزئيًا", en: "Partly paid")
        static let paid = LocalizedText(ar: "مدفوعة", en: "Paid")
        static let overdue = LocalizedText(ar: "متأخرة", en: "Overdue")
        static let cancelled = LocalizedText(ar: "ملغاة", en: "Cancelled")
        static let cash = LocalizedText(ar: "نقدًا", en: "Cash")
        static let bankTransfer = LocalizedText(ar: "تحويل بنكي", en: "Bank transfer")
        static let card = LocalizedText(ar: "بطاقة", en: "Card")
        static let cheque = LocalizedText(ar: "شيك", en: "Cheque")
        static let payment = LocalizedText(ar: "دفعة", en: "Payment")
        static let refund = LocalizedText(ar: "استرداد", en: "Refund")
        static let reversal = LocalizedText(ar: "إلغاء دفعة", en: "Reversal")
    }
}
