import Core

/// The words and templates of the roster import page, in Arabic and English.
extension OneRosterConsole {
    enum Words {
        static let title = LocalizedText(ar: "استيراد قائمة المدرسة (OneRoster)", en: "Import the roster (OneRoster)")
        static let intro = LocalizedText(
            ar: "اختر ملف ‎.zip‎ الذي صدّره نظام معلومات المدرسة بصيغة OneRoster، ثم «افحص الملف»: تُفحص المجموعة كلها ولا يُكتب شيء. إن خلت من المخالفات ظهر زر الاستيراد، فيُكتب كل شيء معًا أو لا شيء.",
            en: "Choose the .zip your school information system exported as OneRoster, then Check the file: the whole set is checked and nothing is written. If it has no violations, an Import button appears; everything is written together, or nothing is.")
        static let zip = LocalizedText(ar: "ملف OneRoster بصيغة ‎.zip‎ (حتى 1 ميغابايت)", en: "OneRoster .zip file (up to 1 MB)")
        static let hint = LocalizedText(ar: "ملفات CSV في جذر الملف المضغوط: manifest.csv و orgs.csv و users.csv وغيرها.",
                                        en: "CSV files at the root of the zip: manifest.csv, orgs.csv, users.csv and the others.")
        static let noFile = LocalizedText(ar: "لم يُختر ملف. اختر ملف ‎.zip‎ ثم افحصه.", en: "No file was chosen. Choose a .zip file, then check it.")
        static let notZip = LocalizedText(
            ar: "هذا ليس ملفًا مضغوطًا بصيغة ‎.zip‎. صدّر المجموعة من نظام المعلومات بصيغة OneRoster CSV مضغوطة واختر الملف مرة أخرى. لم يُكتب شيء.",
            en: "This is not a .zip file. Export the set from the information system as zipped OneRoster CSV and choose it again. Nothing was written.")
        static let problems = LocalizedText(
            ar: "في الملف {file} مخالفات عددها {count}، ولم يُكتب شيء. صحّحها في تصدير نظام المعلومات ثم اختر الملف وافحصه مرة أخرى.",
            en: "The file {file} has {count} violations, and nothing was written. Correct them in the information system's export, then choose the file and check it again.")
        static let warnings = LocalizedText(ar: "قراءات متساهلة ({count}): قُبلت كما هو موضح ولا تمنع الاستيراد.",
                                            en: "Read leniently ({count}): accepted as described, and they do not stop the import.")
        static let severalSchools = LocalizedText(
            ar: "يضم الملف {file} مدارس عددها {count}. اختر المدرسة التي تستوردها هنا، فيُفحص الملف لها وحدها:",
            en: "The file {file} holds {count} schools. Choose the one to import here, and the file is checked for it alone:")
        static let checkSchool = LocalizedText(ar: "افحص الملف لهذه المدرسة", en: "Check the file for this school")
        static let rows = LocalizedText(ar: "صفوف البيانات", en: "Data rows")
        static let ready = LocalizedText(ar: "لا مخالفات في المجموعة (OneRoster {version}). هذا ما فيها:",
                                         en: "The set has no violations (OneRoster {version}). This is what it holds:")
        static let importButton = LocalizedText(ar: "استورد القائمة", en: "Import the roster")
        static let done = LocalizedText(ar: "تم استيراد القائمة (OneRoster {version}).", en: "The roster was imported (OneRoster {version}).")
        static let created = LocalizedText(ar: "أُنشئ: {kind} ({count})", en: "Created: {kind} ({count})")
        static let updated = LocalizedText(ar: "حُدّث: {kind} ({count})", en: "Updated: {kind} ({count})")
        static let archived = LocalizedText(ar: "أُرشف: {kind} ({count})", en: "Archived: {kind} ({count})")
        static let nothing = LocalizedText(ar: "لم يتغيّر شيء.", en: "Nothing changed.")
        static let notImported = LocalizedText(ar: "صفوف صحيحة لا مكان لها هنا فلم تُستورد: {count}.",
                                               en: "Valid rows with no place here, so not imported: {count}.")
        static let codes = LocalizedText(
            ar: "رموز لمرة واحدة للحسابات الجديدة ({count}): تظهر هذه المرة فقط. أعطِ كل شخص رمزه ليختار كلمة مروره.",
            en: "One-time codes for the new accounts ({count}): shown this once only. Give each person their code to choose a password.")
        static let email = LocalizedText(ar: "البريد الإلكتروني", en: "Email")
        static let code = LocalizedText(ar: "الرمز", en: "Code")
        static let expires = LocalizedText(ar: "ينتهي في", en: "Expires on")
        static let toStudents = LocalizedText(ar: "اعرض قائمة الطلاب", en: "Show the students list")
    }

    enum Templates {
        static let ready = ConsoleTemplate("""
            <p class="notice" role="status" id="import-ready" tabindex="-1" data-focus-on-load>{{summary}}</p>
            <div class="table-wrap" tabindex="0" role="region" aria-labelledby="import-ready"><table id="import-preview">
            <thead><tr><th scope="col">{{fileLabel}}</th><th scope="col">{{rowsLabel}}</th></tr></thead><tbody>
            {{#files}}<tr><td><code dir="ltr">{{file}}</code></td><td>{{rows}}</td></tr>{{/files}}
            </tbody></table></div>
            {{{warnings}}}
            <form method="post" action="{{action}}" enctype="multipart/form-data" id="import-confirm" data-submit-once>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="step" value="import">
            <input type="hidden" name="name" value="{{name}}"><input type="hidden" name="zip" value="{{carried}}">
            <input type="hidden" name="org" value="{{org}}">
            <p class="actions"><button type="submit" class="primary">{{submit}}</button> <a class="button" href="{{again}}">{{againText}}</a></p>
            </form>
            """)

        static let choose = ConsoleTemplate("""
            <form method="post" action="{{action}}" enctype="multipart/form-data" id="import-choose" data-submit-once>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="step" value="school">
            <input type="hidden" name="name" value="{{name}}"><input type="hidden" name="zip" value="{{carried}}">
            <fieldset class="choices" id="import-schools"><legend tabindex="-1" data-focus-on-load>{{legend}}</legend>
            {{#schools}}<label><input type="radio" name="org" id="{{id}}" value="{{value}}"{{#checked}} checked{{/checked}}> {{name}} <bdi dir="ltr">({{identifier}})</bdi></label>{{/schools}}
            </fieldset>
            <p class="actions"><button type="submit" class="primary">{{submit}}</button> <a class="button" href="{{again}}">{{againText}}</a></p>
            </form>
            """)

        static let done = ConsoleTemplate("""
            <p class="notice" role="status" id="import-done" tabindex="-1" data-focus-on-load>{{done}}</p>
            <ul id="import-counts">{{#lines}}<li>{{line}}</li>{{/lines}}</ul>
            {{#none}}<p>{{none}}</p>{{/none}}
            {{#notImported}}<p class="hint">{{notImported}}</p>{{/notImported}}
            {{{warnings}}}
            {{#codesIntro}}<p class="problem" id="import-codes-intro">{{codesIntro}}</p>
            <div class="table-wrap" tabindex="0" role="region" aria-labelledby="import-codes-intro"><table id="import-codes">
            <thead><tr><th scope="col">{{emailLabel}}</th><th scope="col">{{codeLabel}}</th><th scope="col">{{expiresLabel}}</th></tr></thead><tbody>
            {{#codes}}<tr><td><code dir="ltr">{{email}}</code></td><td><code dir="ltr">{{code}}</code></td><td>{{expires}}</td></tr>{{/codes}}
            </tbody></table></div>{{/codesIntro}}
            {{#students}}<p><a class="button primary" href="{{students}}" id="import-to-students">{{studentsText}}</a></p>{{/students}}
            """)
    }
}
