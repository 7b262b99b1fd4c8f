import Foundation
import HogwartsKernel

/// The records pages' own words.
enum ConsoleRecordWords {
    static let search = LocalizedText(ar: "ابحث في القائمة", en: "Search the list")
    static let find = LocalizedText(ar: "ابحث", en: "Search")
    static let noMatch = LocalizedText(ar: "لا شيء يطابق «{search}». امسح البحث لترى الكل.", en: "Nothing matches “{search}”. Clear the search to see everything.")
    static let count = LocalizedText(ar: "{first}–{last} من {total}", en: "{first}–{last} of {total}")
    static let previous = LocalizedText(ar: "السابق", en: "Previous")
    static let next = LocalizedText(ar: "التالي", en: "Next")
    static let pages = LocalizedText(ar: "الصفحات", en: "Pages")
    static let back = LocalizedText(ar: "العودة إلى {records}", en: "Back to {records}")
    static let none = LocalizedText(ar: "لا شيء", en: "None")
    static let cancel = LocalizedText(ar: "إلغاء", en: "Cancel")
    static let yes = LocalizedText(ar: "نعم", en: "Yes")
    static let no = LocalizedText(ar: "لا", en: "No")
    static let problem = LocalizedText(ar: "لم يُحفظ شيء: صحّح الحقل المعلَّم أدناه.", en: "Nothing was saved: correct the field marked below.")
    static let fillIn = LocalizedText(ar: "املأ هذا الحقل.", en: "Fill this in.")
    static let notValid = LocalizedText(ar: "هذه القيمة غير مقبولة هنا؛ اختر من القائمة أو صحّحها.", en: "This value is not accepted here; choose from the list or correct it.")
    static let number = LocalizedText(ar: "اكتب رقمًا بأرقام وفاصلة عشرية عند الحاجة، مثل 12.5.", en: "Write a number in digits, with a decimal point if needed, such as 12.5.")
    static let wholeNumber = LocalizedText(ar: "اكتب عددًا صحيحًا بالأرقام، مثل 30.", en: "Write a whole number in digits, such as 30.")
}
