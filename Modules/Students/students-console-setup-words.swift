import Core

/// The words and template of the set-up page, in Arabic and English.
extension StudentsConsole {
    enum SetupWords {
        static let title = LocalizedText(ar: "إعداد المدرسة", en: "School set-up")
        static let intro = LocalizedText(
            ar: "السنة الدراسية وفصولها الدراسية، والمراحل والفصول، والمواد ومن يدرّسها. أضف كل واحد بنموذجه؛ ما يُرفض يُقال عند حقله ولا يُحفظ.",
            en: "The school year and its terms, the year levels and classes, the subjects and who teaches them. Add each with its form; anything refused is said beside its field and not saved.")
        static let years = LocalizedText(ar: "السنوات الدراسية", en: "School years")
        static let terms = LocalizedText(ar: "الفصول الدراسية", en: "Terms")
        static let levels = LocalizedText(ar: "المراحل", en: "Year levels")
        static let classes = LocalizedText(ar: "فصول هذه السنة", en: "This year's classes")
        static let subjects = LocalizedText(ar: "المواد", en: "Subjects")
        static let teaching = LocalizedText(ar: "من يدرّس ماذا", en: "Who teaches what")
        static let none = LocalizedText(ar: "لا شيء بعد.", en: "None yet.")
        static let added = LocalizedText(ar: "أُضيف.", en: "Added.")
        static let add = LocalizedText(ar: "أضف", en: "Add")
        static let choose = LocalizedText(ar: "اختر", en: "Choose")
        static let noHomeroom = LocalizedText(ar: "بلا معلم فصل", en: "No homeroom teacher")
        static let seats = LocalizedText(ar: "{taken} من {of} مقعدًا", en: "{taken} of {of} seats")
        static let fillIn = LocalizedText(ar: "لم يُحفظ شيء: املأ «{field}».", en: "Nothing was saved: fill in “{field}”.")
        static let notANumber = LocalizedText(ar: "لم يُحفظ شيء: «{field}» يجب أن يكون رقمًا.", en: "Nothing was saved: “{field}” must be a number.")
        static let yearName = LocalizedText(ar: "اسم السنة (مثل 2026-2027)", en: "Name of the year (such as 2026-2027)")
        static let startsOn = LocalizedText(ar: "تبدأ في", en: "Starts on")
        static let endsOn = LocalizedText(ar: "تنتهي في", en: "Ends on")
        static let schoolYear = LocalizedText(ar: "السنة الدراسية", en: "School year")
        static let nameAr = LocalizedText(ar: "الاسم بالعربية", en: "Name in Arabic")
        static let nameEn = LocalizedText(ar: "الاسم بالإنجليزية", en: "Name in English")
        static let code = LocalizedText(ar: "الرمز", en: "Code")
        static let position = LocalizedText(ar: "الترتيب", en: "Order")
        static let yearLevel = LocalizedText(ar: "المرحلة", en: "Year level")
        static let homeroom = LocalizedText(ar: "معلم الفصل", en: "Homeroom teacher")
        static let capacity = LocalizedText(ar: "عدد المقاعد", en: "Seats")
        static let credits = LocalizedText(ar: "الساعات المعتمدة", en: "Credits")
        static let teacher = LocalizedText(ar: "المعلم", en: "Teacher")
        static let schoolClass = LocalizedText(ar: "الفصل", en: "Class")
        static let subject = LocalizedText(ar: "المادة", en: "Subject")
    }

    enum SetupTemplates {
        static let page = ConsoleTemplate("""
            <p class="lead">{{intro}}</p>
            {{#sections}}<section class="panel" id="{{id}}" aria-labelledby="{{id}}-heading"><h2 id="{{id}}-heading">{{heading}}</h2>
            {{#hasItems}}<ul class="lessons" id="{{id}}-items">{{#items}}<li><bdi>{{text}}</bdi></li>{{/items}}</ul>{{/hasItems}}{{^hasItems}}<p>{{none}}</p>{{/hasItems}}
            {{#done}}<p class="notice" role="status">{{done}}</p>{{/done}}
            <form method="post" action="{{action}}" data-submit-once novalidate>
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="form" value="{{form}}">
            {{#problem}}<p class="problem" role="alert" id="{{id}}-problem">{{problem}}</p>{{/problem}}
            {{#fields}}<div class="field{{#invalid}} invalid{{/invalid}}"><label for="{{id}}">{{label}}</label>
            {{#select}}<select id="{{id}}" name="{{name}}"{{#invalid}} aria-invalid="true" aria-describedby="{{problemID}}"{{/invalid}}>{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>{{/select}}
            {{^select}}<input id="{{id}}" name="{{name}}" type="{{type}}" value="{{value}}" autocomplete="off"{{#step}} step="{{step}}"{{/step}}{{#ltr}} dir="ltr"{{/ltr}}{{#invalid}} aria-invalid="true" aria-describedby="{{problemID}}"{{/invalid}}>{{/select}}
            </div>{{/fields}}
            <p><button type="submit" class="primary">{{submit}}</button></p></form></section>{{/sections}}
            """)
    }
}
