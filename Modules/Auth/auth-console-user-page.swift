import Core

/// The words and the template of one account's page (`AuthConsoleUser`).
extension AuthConsoleUser {
    enum Words {
        static let title = LocalizedText(ar: "حساب", en: "Account")
        static let heading = LocalizedText(ar: "حساب {name}", en: "Account of {name}")
        static let missing = LocalizedText(ar: "لا حساب بهذا البريد في مدرستك. ابحث عنه في قائمة المستخدمين.",
                                           en: "No account of your school has this email. Look for it in the list of users.")
        static let back = LocalizedText(ar: "العودة إلى المستخدمين", en: "Back to the users")
        static let yourOwn = LocalizedText(ar: "هذا حسابك: يغيّر دورك أو يوقفه مدير آخر، وتغيّر كلمة مرورك من صفحتك.",
                                           en: "This is your own account: another administrator changes your role or suspends it, and you change your password from your profile.")
        static let email = LocalizedText(ar: "البريد الإلكتروني", en: "Email")
        static let role = LocalizedText(ar: "الدور", en: "Role")
        static let status = LocalizedText(ar: "الحالة", en: "Status")
        static let active = LocalizedText(ar: "نشط", en: "Active")
        static let suspended = LocalizedText(ar: "موقوف", en: "Suspended")
        static let locked = LocalizedText(ar: "مقفل بعد محاولات دخول خاطئة، حتى {time}", en: "Locked after wrong sign-ins, until {time}")
        static let saveRole = LocalizedText(ar: "حفظ الدور", en: "Save role")
        static let roleHint = LocalizedText(ar: "تغيير الدور ينهي جلساته ورموزه فورًا.", en: "Changing the role ends their sessions and tokens at once.")
        static let resetHeading = LocalizedText(ar: "كلمة المرور", en: "Password")
        static let resetHint = LocalizedText(ar: "يصل إلى {email} بريد فيه رمز من 6 أرقام صالح 10 دقائق. يفتح «نسيت كلمة المرور؟» في صفحة الدخول ويختار كلمة مرور جديدة. لا ترى أنت الرمز ولا كلمة المرور.",
                                             en: "{email} gets an email with a 6-digit code, valid for 10 minutes. They open \"Forgot your password?\" on the sign-in page and choose a new password. You never see the code or the password.")
        static let reset = LocalizedText(ar: "أرسل رمز إعادة التعيين", en: "Send a reset code")
        static let resetWait = LocalizedText(ar: "أُرسلت رموز كثيرة إلى هذا البريد مؤخرًا. أعد المحاولة بعد {minutes} دقيقة.",
                                             en: "Several codes went to this address recently. Try again in {minutes} minutes.")
        static let noCode = LocalizedText(ar: "لا يُرسل رمز إلى حساب موقوف: أعد تفعيله أولًا.", en: "A suspended account gets no code: reinstate it first.")
        static let unlockHeading = LocalizedText(ar: "القفل بعد محاولات خاطئة", en: "Lock after wrong sign-ins")
        static let unlockHint = LocalizedText(ar: "رفع القفل يتيح الدخول فورًا، ولا تُحسب المحاولات الخاطئة السابقة.",
                                              en: "Unlocking lets them sign in at once; earlier wrong attempts stop counting.")
        static let notLocked = LocalizedText(ar: "الحساب غير مقفل. رفع القفل يمسح عدّ المحاولات الخاطئة السابقة.",
                                             en: "The account is not locked. Unlocking clears the count of earlier wrong attempts.")
        static let unlock = LocalizedText(ar: "ارفع القفل", en: "Unlock")
        static let suspendHeading = LocalizedText(ar: "إيقاف الحساب", en: "Suspend the account")
        static let suspendHint = LocalizedText(ar: "الحساب الموقوف لا يدخل، وتنتهي جلساته ورموزه فورًا. بياناته تبقى، ويمكن إعادة تفعيله.",
                                               en: "A suspended account cannot sign in, and its sessions and tokens end at once. Its records stay, and it can be reinstated.")
        static let reinstateHeading = LocalizedText(ar: "إعادة التفعيل", en: "Reinstate")
        static let reinstateHint = LocalizedText(ar: "يستطيع الدخول من جديد بكلمة مروره.", en: "They can sign in again with their password.")
        static let suspend = LocalizedText(ar: "إيقاف {name}", en: "Suspend {name}")
        static let reinstate = LocalizedText(ar: "إعادة تفعيل {name}", en: "Reinstate {name}")
        static let confirm = LocalizedText(ar: "هل توقف حساب {name} ({email})؟ تنتهي جلساته الآن ولا يستطيع الدخول حتى تعيد تفعيله.",
                                           en: "Suspend the account of {name} ({email})? Their sessions end now, and they cannot sign in until you reinstate it.")
        static let confirmYes = LocalizedText(ar: "نعم، أوقف {name}", en: "Yes, suspend {name}")
        static let cancel = LocalizedText(ar: "إلغاء", en: "Cancel")
        static let unknownJob = LocalizedText(ar: "طلب غير معروف: استعمل أزرار هذه الصفحة.", en: "Unknown request: use the buttons on this page.")

        /// What each job's result says.
        static let done: [(String, LocalizedText)] = [
            ("reset", LocalizedText(ar: "أُرسل رمز إعادة التعيين إلى {email}.", en: "A reset code is on its way to {email}.")),
            ("unlock", LocalizedText(ar: "رُفع القفل عن {email}: يستطيع الدخول الآن.", en: "{email} is unlocked: they can sign in now.")),
            ("role", LocalizedText(ar: "تغيّر دور {email}، وانتهت جلساته.", en: "The role of {email} is changed, and their sessions are ended.")),
            ("suspend", LocalizedText(ar: "أُوقف {email}: انتهت جلساته.", en: "{email} is suspended: their sessions are ended.")),
            ("reinstate", LocalizedText(ar: "أُعيد تفعيل {email}.", en: "{email} is reinstated.")),
        ]
    }

    enum Templates {
        static let missing = ConsoleTemplate("""
            <p class="problem" role="alert">{{text}}</p><p><a href="{{back}}">{{backText}}</a></p>
            """)

        static let page = ConsoleTemplate("""
            <p><a href="{{back}}">{{backText}}</a></p>
            {{#notice}}<p class="notice" role="status" id="user-done">{{notice}}</p>{{/notice}}
            {{#error}}<p class="problem" role="alert" id="user-problem">{{error}}</p>{{/error}}
            <dl class="panel" id="user-facts" data-status="{{status}}"><dt>{{emailLabel}}</dt><dd><bdi dir="ltr">{{email}}</bdi></dd>
            <dt>{{roleLabel}}</dt><dd>{{roleText}}</dd><dt>{{statusLabel}}</dt><dd id="user-status">{{statusText}}</dd></dl>
            {{#me}}<p class="hint">{{meText}}</p>{{/me}}
            {{^me}}
            {{#confirming}}<form method="post" action="{{action}}" class="panel" id="confirm-suspend" data-submit-once role="alertdialog" aria-labelledby="confirm-text">
            <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="email" value="{{email}}">
            <input type="hidden" name="do" value="suspend"><input type="hidden" name="confirm" value="yes">
            <p id="confirm-text"><strong>{{confirmText}}</strong></p>
            <p class="actions"><button type="submit" class="danger">{{confirmYes}}</button> <a class="button" href="{{cancelHref}}">{{cancel}}</a></p></form>{{/confirming}}
            <form method="post" action="{{action}}" class="panel" id="role-job" data-submit-once><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="do" value="role"><input type="hidden" name="email" value="{{email}}">
            <div class="field"><label for="user-role">{{roleLabel}}</label><select id="user-role" name="role" aria-describedby="role-hint">{{#roles}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/roles}}</select>
            <p class="hint" id="role-hint">{{roleHint}}</p></div><button type="submit">{{saveRole}}</button></form>
            {{#mayReset}}<form method="post" action="{{action}}" class="panel" id="reset-job" data-submit-once aria-labelledby="reset-heading"><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="do" value="reset"><input type="hidden" name="email" value="{{email}}">
            <h2 id="reset-heading">{{resetHeading}}</h2><p class="hint">{{resetHint}}</p><button type="submit">{{reset}}</button></form>{{/mayReset}}
            <form method="post" action="{{action}}" class="panel" id="unlock-job" data-submit-once aria-labelledby="unlock-heading"><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="do" value="unlock"><input type="hidden" name="email" value="{{email}}">
            <h2 id="unlock-heading">{{unlockHeading}}</h2><p class="hint">{{unlockHint}}</p><button type="submit">{{unlock}}</button></form>
            <form method="post" action="{{action}}" class="panel" id="status-job" data-submit-once aria-labelledby="status-heading"><input type="hidden" name="_csrf" value="{{csrf}}">
            <input type="hidden" name="do" value="{{do}}"><input type="hidden" name="email" value="{{email}}">
            <h2 id="status-heading">{{statusHeading}}</h2><p class="hint">{{statusHint}}</p><button type="submit" class="{{do}}">{{toggle}}</button></form>
            {{/me}}
            """)
    }
}
