"""The register in a real browser, by keyboard, and across an ended session.

Run by Tests/HostTests/console-register-browser-tests.swift against a live `hogwarts serve` on a
demo database (SQLite), once per language, as the demo teacher on a phone-sized screen:

1. Tab moves from student to student, Space on a chosen status moves to the next one (present,
   absent, late), an arrow moves within a student's statuses, Enter saves; the result message
   has the focus afterwards, and the database has exactly the marks made by keyboard.
2. A form sent twice at once (a double tap) reaches the server once.
3. The session ends while a mark is being changed: Save shows the sign-in page with the reason,
   in the teacher's language; signing in again saves the register without retyping a mark.

Prints 'N passed, N failed'; exits non-zero on any failure.
"""
import argparse
import sqlite3
import sys

from playwright.sync_api import sync_playwright

from console_sign_in import submit_sign_in

PASSWORD = "1234"
EMAIL = "teacher@databayt.org"


class Run:
    def __init__(self, args):
        self.args = args
        self.base = args.base_url.rstrip("/")
        self.lang = args.lang
        self.failures = []
        self.passed = 0
        self.errors = []

    def check(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            print(f"FAILED [{self.lang}]: {what}", file=sys.stderr)

    def marks(self, class_code):
        """The class's records today (the latest day recorded), by GR number."""
        with sqlite3.connect(f"file:{self.args.database}?mode=ro", uri=True) as db:
            return dict(db.execute("""
                SELECT s.gr_number, r.status FROM attendance_records r JOIN students_students s ON s.school_id = r.school_id AND s.id = r.student_id
                JOIN students_classes c ON c.school_id = r.school_id AND c.id = r.class_id
                WHERE c.code = ? AND r.period = 'DAY' AND r.date = (SELECT MAX(date) FROM attendance_records)
                """, (class_code,)).fetchall())

    def sign_in(self, page):
        submit_sign_in(page, EMAIL, PASSWORD)  # in two schools: the first one listed

    def focused(self, page):
        return page.evaluate("document.activeElement && document.activeElement.id")

    def focus_settles_on(self, page, element_id):
        """The page moves the focus from its own script once it has loaded: on a loaded machine
        that comes after the element appears, so wait for it (up to 10 s) before judging."""
        try:
            page.wait_for_function("id => document.activeElement && document.activeElement.id === id", arg=element_id, timeout=10000)
        except Exception:
            pass
        return self.focused(page) == element_id

    def open_register(self, page):
        page.goto(self.base + "/sign-in")
        self.sign_in(page)
        if page.locator("html").get_attribute("lang") != self.lang:
            page.click(f"form[action='/language'] button[lang='{self.lang}']")
        page.click("nav a[href='/m/attendance/register']")
        # Another class in each language, so each run takes a register nobody has taken today.
        page.click(f"main ul.lessons a >> nth={0 if self.lang == 'ar' else 1}")
        page.wait_for_selector("#register-form")
        if page.locator("#day-off-confirm").count() > 0:  # a run on a day the calendar calls a day off
            page.check("#day-off-confirm")
        return page.locator("#register-form input[name=class]").get_attribute("value")

    def keyboard(self, page):
        class_code = self.open_register(page)
        rows = page.locator("ol.register > li")
        gr = [rows.nth(i).locator("code").inner_text() for i in range(4)]
        self.check(page.locator("fieldset[role=radiogroup]").count() == rows.count(), "each student's statuses are one radio group")
        page.focus("#s-1-PRESENT")
        page.keyboard.press("Space")
        self.check(page.is_checked("#s-1-ABSENT") and self.focused(page) == "s-1-ABSENT", "Space on 'present' chooses 'absent' and keeps the focus on it")
        page.keyboard.press("Tab")
        self.check(self.focused(page) == "s-2-PRESENT", f"Tab goes to the next student's chosen status ({self.focused(page)})")
        page.keyboard.press("Tab")
        page.keyboard.press("Space")
        page.keyboard.press("Space")
        self.check(page.is_checked("#s-3-LATE"), "Space twice chooses 'late'")
        page.keyboard.press("Tab")
        page.keyboard.press("ArrowDown")
        self.check(page.is_checked("#s-4-ABSENT"), "an arrow moves to the next status and chooses it")
        self.check(page.locator("#exceptions-count").inner_text() == "3", "the page counts three exceptions")
        posts = []
        page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
        # A double tap: the form is sent twice at once; the page sends it once and its button waits.
        page.evaluate("""() => { const form = document.getElementById('register-form');
            form.requestSubmit(); form.requestSubmit(); }""")
        page.wait_for_selector("#saved")
        self.check(len(posts) == 1, f"a double tap sends the register once ({len(posts)} posts)")
        self.check(self.focus_settles_on(page, "saved"), f"after saving, the focus is on the result ({self.focused(page)})")
        saved = self.marks(class_code)
        self.check([saved.get(g) for g in gr] == ["ABSENT", "PRESENT", "LATE", "ABSENT"], f"the database has the keyboard's marks {[saved.get(g) for g in gr]}")
        taken = "أُخذ هذا التحضير في" if self.lang == "ar" else "Already taken at"
        self.check(taken in page.locator("#register-hint").inner_text(), "the saved register says it was taken, and when")
        return class_code

    def ended_session(self, page, class_code):
        rows = page.locator("ol.register > li")
        gr = rows.nth(1).locator("code").inner_text()
        page.focus("#s-2-PRESENT")
        page.keyboard.press("Space")
        # The session ends while the teacher is on the page.
        session = next(c for c in page.context.cookies() if c["name"] == "hogwarts_session")
        page.context.add_cookies([{**session, "value": session["value"].split(".")[0] + ".ended"}])
        if page.locator("#day-off-confirm").count() > 0:
            page.check("#day-off-confirm")
        page.click("#register-form button[type=submit]")
        page.wait_for_selector("form[action='/sign-in']")
        self.check(page.locator("html").get_attribute("lang") == self.lang, f"the sign-in page keeps the teacher's language ({page.locator('html').get_attribute('lang')})")
        notice = page.locator("p.notice").inner_text() if page.locator("p.notice").count() else ""
        expected = "وسيُحفظ ما كنت تحفظه" if self.lang == "ar" else "what you were saving will be saved"
        self.check(expected in notice, f"the sign-in page says why ({notice!r})")
        self.check(self.marks(class_code).get(gr) == "PRESENT", "nothing is saved without a session")
        self.sign_in(page)
        page.wait_for_selector("#saved")
        self.check("/m/attendance/register" in page.url, f"signing in again goes on to the register ({page.url})")
        self.check(self.marks(class_code).get(gr) == "ABSENT", "signing in again saved the changed mark")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--lang", choices=["ar", "en"], required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    run = Run(args)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        # Script errors fail the run; a failed load is judged by its response below (the sign-in page
        # after an ended session answers 401 on purpose).
        page.on("console", lambda message: run.errors.append(message.text)
                if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
        page.on("response", lambda response: run.errors.append(f"{response.status} {response.url}")
                if response.status >= 400 and not (response.status == 401 and response.url.endswith("/m/attendance/register")) else None)
        page.on("pageerror", lambda error: run.errors.append(str(error)))
        try:
            class_code = run.keyboard(page)
            run.ended_session(page, class_code)
        except Exception as error:  # a missing element: the flow's failure
            run.check(False, f"register flow: {error}")
        context.close()
        browser.close()
    run.check(run.errors == [], f"browser console errors: {run.errors}")
    print(f"{run.passed} passed, {len(run.failures)} failed")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
