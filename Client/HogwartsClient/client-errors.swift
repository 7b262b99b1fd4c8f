import Foundation

/// The languages the client speaks (the school platform's two).
public enum ClientLanguage: String, Sendable, CaseIterable {
    case ar, en

    /// From `LANG`/`LC_ALL` (`ar_SD.UTF-8` -> Arabic); English otherwise.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ClientLanguage {
        let value = environment["LC_ALL"] ?? environment["LANG"] ?? ""
        return value.lowercased().hasPrefix("ar") ? .ar : .en
    }
}

/// What can go wrong in the client, each saying what to do next, in Arabic and English.
public enum ClientError: Error, Sendable, Equatable {
    case notSignedIn
    case sessionExpired
    case invalidServer(String)
    case network(String)
    case signInRefused(String)
    case severalSchools([String])
    case server(status: Int, code: String?, message: String?)
    case protocolViolation(String)
    case invalidInput(field: String, reason: String)
    case notInOutbox(Int64)
    case unknownClass(String)
    case unknownStudent(String)

    public func message(_ language: ClientLanguage) -> String {
        switch (self, language) {
        case (.notSignedIn, .en): "Not signed in. Run `hogwarts-client login --server URL --email EMAIL` first."
        case (.notSignedIn, .ar): "لم تسجّل الدخول بعد. شغّل `hogwarts-client login --server URL --email EMAIL` أولاً."
        case (.sessionExpired, .en): "Your session has ended. Sign in again with `hogwarts-client login`; queued changes are kept."
        case (.sessionExpired, .ar): "انتهت جلستك. سجّل الدخول من جديد بـ `hogwarts-client login`؛ التغييرات المنتظرة محفوظة."
        case (.invalidServer(let url), .en): "'\(url)' is not a server address. Give one like https://school.example.org."
        case (.invalidServer(let url), .ar): "'\(url)' ليس عنوان خادم. اكتب عنواناً مثل https://school.example.org."
        case (.network(let detail), .en): "The server cannot be reached (\(detail)). Your changes stay queued; run `hogwarts-client sync` when the network is back."
        case (.network(let detail), .ar): "تعذّر الوصول إلى الخادم (\(detail)). تبقى تغييراتك في الانتظار؛ شغّل `hogwarts-client sync` عند عودة الشبكة."
        case (.signInRefused(let reason), .en): "Sign-in refused: \(reason). Check the email and password and try again."
        case (.signInRefused(let reason), .ar): "رُفض تسجيل الدخول: \(reason). تحقّق من البريد وكلمة المرور وحاول مجدداً."
        case (.severalSchools(let schools), .en): "This email has accounts in several schools: \(schools.joined(separator: ", ")). Add --school ID."
        case (.severalSchools(let schools), .ar): "لهذا البريد حسابات في عدة مدارس: \(schools.joined(separator: "، ")). أضف ‎--school ID."
        case (.server(let status, let code, let message), .en): "The server answered \(status)\(code.map { " \($0)" } ?? "")\(message.map { ": \($0)" } ?? ""). Try again later or tell your school's administrator."
        case (.server(let status, let code, let message), .ar): "ردّ الخادم بـ \(status)\(code.map { " \($0)" } ?? "")\(message.map { ": \($0)" } ?? ""). حاول لاحقاً أو أبلغ مسؤول المدرسة."
        case (.protocolViolation(let detail), .en): "The server's answer does not follow the sync protocol (\(detail)). Update the app or tell your school's administrator."
        case (.protocolViolation(let detail), .ar): "ردّ الخادم لا يتبع بروتوكول المزامنة (\(detail)). حدّث التطبيق أو أبلغ مسؤول المدرسة."
        case (.invalidInput(let field, let reason), .en): "\(field): \(reason). Correct it and run the command again; nothing was queued."
        case (.invalidInput(let field, let reason), .ar): "\(field): \(reason). صحّحه وأعد تشغيل الأمر؛ لم يُضف شيء إلى الانتظار."
        case (.notInOutbox(let seq), .en): "No failed or waiting change has number \(seq). See `hogwarts-client outbox`."
        case (.notInOutbox(let seq), .ar): "لا يوجد تغيير فاشل أو منتظر بالرقم \(seq). راجع `hogwarts-client outbox`."
        case (.unknownClass(let code), .en): "No class '\(code)' in your local copy. Run `hogwarts-client pull`, or check `hogwarts-client show classes`."
        case (.unknownClass(let code), .ar): "لا يوجد فصل '\(code)' في نسختك المحلية. شغّل `hogwarts-client pull` أو راجع `hogwarts-client show classes`."
        case (.unknownStudent(let gr), .en): "No student with GR number '\(gr)' in that class. Check `hogwarts-client show students`."
        case (.unknownStudent(let gr), .ar): "لا يوجد طالب برقم القيد '\(gr)' في هذا الفصل. راجع `hogwarts-client show students`."
        }
    }

    /// Worth retrying later (no answer, or the server is busy); everything else is permanent.
    public var isTransient: Bool {
        switch self {
        case .network: true
        case .server(let status, _, _): status == 503 || status == 502 || status == 504 || status == 429 || status >= 500
        default: false
        }
    }
}

extension ClientError: LocalizedError {
    public var errorDescription: String? { message(.en) }
}
