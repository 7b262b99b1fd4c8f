import Core

/// The words and templates of the students import page, in Arabic and English.
extension StudentsConsole {
    enum ImportWords {
        static let title = LocalizedText(ar: "استيراد الطلاب من ملف CSV", en: "Import students from a CSV file")
        static let link = LocalizedText(ar: "استيراد من ملف", en: "Import from a file")
        static let intro = LocalizedText(
            ar: "اختر ملف CSV ثم «افحص الملف»: يُفحص كل صف ولا يُكتب شيء. إن خلا الملف من المشكلات ظهر من سيُضاف وزر الاستيراد، فيُضاف الجميع معًا أو لا يُضاف أحد.",
            en: "Choose a CSV file, then Check the file: every row is checked and nothing is written. If the file has no problems, you see who will be added and an Import button; everyone is added together, or no one is.")
        static let file = LocalizedText(ar: "ملف CSV (بترميز UTF-8، حتى 1 ميغابايت)", en: "CSV file (UTF-8, up to 1 MB)")
        static let hint = LocalizedText(ar: "الصف الأول أسماء الأعمدة: {columns}", en: "The first row names the columns: {columns}")
        static let cancel = LocalizedText(ar: "العودة إلى الطلاب", en: "Back to the students")
        static let noFile = LocalizedText(ar: "لم يُختر ملف. اختر ملف CSV ثم افحصه.", en: "No file was chosen. Choose a CSV file, then check it.")
        static let notCSV = LocalizedText(
            ar: "هذا ليس ملف CSV. احفظ الجدول بصيغة «CSV UTF-8» (ملف ينتهي بـ ‎.csv) واختره مرة أخرى. لم يُكتب شيء.",
            en: "This is not a CSV file. Save the spreadsheet as \"CSV UTF-8\" (a file ending in .csv) and choose it again. Nothing was written.")
        static let empty = LocalizedText(ar: "لا طلاب في الملف بعد صف الأعمدة. لم يُكتب شيء.", en: "The file has no students after its header row. Nothing was written.")
        static let problems = LocalizedText(
            ar: "في الملف {file} مشكلات عددها {count}، ولم يُكتب شيء. صحّحها في الملف ثم اختره وافحصه مرة أخرى.",
            en: "The file {file} has {count} problems, and nothing was written. Correct them in the file, then choose it and check it again.")
        static let ready = LocalizedText(ar: "لا مشكلات في الملف. سيُضاف {count} من الطلاب:", en: "The file has no problems. {count} students will be added:")
        static let more = LocalizedText(ar: "و{count} غيرهم.", en: "And {count} more.")
        static let importButton = LocalizedText(ar: "استورد {count} من الطلاب", en: "Import {count} students")
        static let done = LocalizedText(ar: "تم: أُضيف {count} من الطلاب.", en: "Done: {count} students were added.")
        static let toList = LocalizedText(ar: "اعرض قائمة الطلاب", en: "Show the students list")
    }

    enum ImportTemplates {
        static let ready = ConsoleTemplate("""
            <p class="notice" role="status" id="import-ready" tabindex="-1" data-focus-on-load>{{summary}}</p>
            <div class="table-wrap" tabindex="0" role="region" aria-labelledby="import-ready"><table id="import-preview">
            <thead><tr><th scope="col">{{grLabel}}</th><th scope="col">{{nameLabel}}</th><th scope="col">{{classLabel}}</th></tr></thead><tbody>
            {{#rows}}<tr><td><code dir="ltr">{{gr}}</code></td><td><bdi>{{name}}</bdi></td><td><bdi>{{class}}</bdi></td></tr>{{/rows}}
            </tbody></table></div>
            {{#more}}<p class="hint">{{more}}</p>{{/more}}
            <form method="post" action="{{action}}" enctype="multipart/form-data" id="import-confirm" data-submit-once>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="step" value="import">
            <input type="hidden" name="request" value="{{request}}"><input type="hidden" name="name" value="{{file}}">
            <input type="hidden" name="csv" value="{{carried}}">
            <p class="actions"><button type="submit" class="primary">{{submit}}</button> <a class="button" href="{{again}}">{{againText}}</a></p>
            </form>
            """)

        static let done = ConsoleTemplate("""
            <p class="notice" role="status" id="import-done" tabindex="-1" data-focus-on-load>{{done}}</p>
            <p><a class="button primary" href="{{list}}" id="import-to-list">{{listText}}</a></p>
            """)
    }
}
