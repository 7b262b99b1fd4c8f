import Core

/// What the host says when it refuses a loadable module: one sentence naming the file, what is
/// wrong and what to do, in Arabic and English.
enum Sentences {
    static let unreadableDirectory = LocalizedText(
        ar: "تعذّرت قراءة مجلد الوحدات {directory}. تأكّد من وجوده ومن أن مستخدم الخدمة يستطيع قراءته.",
        en: "The modules folder {directory} cannot be read. Check that it exists and that this service's user may read it.")
    static let unloadable = LocalizedText(
        ar: "تعذّر تحميل {file} ({reason}). بُني لمضيف آخر: أعد بناءه بحزمة التطوير وسلسلة الأدوات التي بُني بها هذا المضيف ({host}).",
        en: "{file} could not be loaded ({reason}). It was built for another host: build it again with the SDK and toolchain this host was built with ({host}).")
    static let noEntryPoint = LocalizedText(
        ar: "لا يحوي {file} نقطة الدخول {symbol}، فليس وحدةً لهوغوورتس: ابنِه بحزمة التطوير (HOGWARTS_DECLARE_MODULE و LoadedModule.entry) أو أزله من مجلد الوحدات.",
        en: "{file} has no {symbol} entry point, so it is not a Hogwarts module: build it with the SDK (HOGWARTS_DECLARE_MODULE and LoadedModule.entry) or remove it from the modules folder.")
    static let notAModule = LocalizedText(
        ar: "لا يحمل {file} كتلة تعريف وحدة هوغوورتس: أزله من مجلد الوحدات أو ابنِه بحزمة التطوير.",
        en: "{file} does not carry a Hogwarts module block: remove it from the modules folder or build it with the Hogwarts SDK.")
    static let mismatch = LocalizedText(
        ar: "بُني {file} لـ {built}؛ وهذا المضيف {host}. أعد بناء الوحدة بحزمة التطوير وسلسلة الأدوات التي بُني بها هذا المضيف.",
        en: "{file} was built for {built}; this host is {host}. Build the module again with this host's SDK and toolchain.")
    static let unknownID = LocalizedText(
        ar: "يعلن {file} الوحدة «{declared}» لكنه يقدّم «{module}»: معرّف الوحدة حروف لاتينية صغيرة وأرقام وشرطات، ويجب أن يتطابق الاثنان. أعد بناءه.",
        en: "{file} declares the module \"{declared}\" but provides \"{module}\": a module id is lowercase letters, digits and hyphens, and the two must agree. Build it again.")
    static let duplicate = LocalizedText(
        ar: "يقدّم {file} الوحدة «{module}» وهي موجودة في هذا المضيف: أزل إحدى النسختين.",
        en: "{file} provides the module \"{module}\", which this host already has: remove one of the two.")
    static let missingDependency = LocalizedText(
        ar: "تحتاج الوحدة {module} في {file} إلى الوحدة {dependency} {range}، وليست في هذا المضيف: أضف تلك الوحدة أو أزل هذا الملف.",
        en: "{file} (module {module}) needs the module {dependency} {range}, which this host does not have: add that module or remove this file.")
    static let wrongVersion = LocalizedText(
        ar: "تحتاج الوحدة {module} في {file} إلى {dependency} {range}، وفي هذا المضيف {dependency} {found}: ابنِ الوحدة على إصدار هذا المضيف أو استعمل مضيفًا فيه إصدار ضمن هذا المدى.",
        en: "{file} (module {module}) needs {dependency} {range}, but this host has {dependency} {found}: build the module against this host's version, or use a host with one in that range.")
}
