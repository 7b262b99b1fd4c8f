"""Messages in a real browser: a guardian answers her child's teacher on a 390 px phone, and the
teacher reads the answer.

Run by Tests/HostTests/console-messages-browser-tests.swift against a live `hogwarts serve` on a
demo database, once per language. Checks the conversation links are at least 44 px tall, the
reply is stored once (read from the database) and the teacher's thread shows it. Prints
'N passed, N failed'; exits non-zero on any failure.
"""
import argparse
import sqlite3
import sys
import time

from playwright.sync_api import sync_playwright

from console_sign_in import submit_sign_in, use_language

PASSWORD = "1234"
PHONE = {"width": 390, "height": 844}


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

    def db(self):
        return sqlite3.connect(f"file:{self.args.database}?mode=ro", uri=True)

    def sign_in(self, page, email, school):
        page.goto(self.base + "/")
        self.check(submit_sign_in(page, email, PASSWORD, school), f"{email} is signed in")
        use_language(page, self.lang)
        self.check(page.locator("html").get_attribute("lang") == self.lang, f"{email}: console in {self.lang}")

    def conversation(self):
        """The demo's direct conversation between the guardian and the teacher, in the demo school."""
        with self.db() as db:
            school = db.execute("SELECT id FROM schools WHERE slug = 'demo'").fetchone()[0]
            ids = [db.execute("SELECT id FROM auth_users WHERE school_id = ? AND email = ?", (school, email)).fetchone()[0]
                   for email in ("parent@databayt.org", "teacher@databayt.org")]
            row = db.execute("SELECT id FROM messages_conversations WHERE school_id = ? AND direct_key = ?",
                             (school, "|".join(sorted(ids)))).fetchone()
        return school, ids[0], row[0] if row else None

    def guardian(self, page, text):
        school, parent, conversation = self.conversation()
        self.check(conversation is not None, "the demo has a conversation between the guardian and the teacher")
        self.sign_in(page, "parent@databayt.org", school)
        page.click("nav a[href='/m/messages/conversations']")
        heights = page.eval_on_selector_all("#conversation-list a", "links => links.map(a => a.getBoundingClientRect().height)")
        self.check(heights and min(heights) >= 44, f"conversation links are at least 44 px tall ({heights})")
        self.check(page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the list fits the phone's width")
        page.click(f"#conversation-list a[href$='c={conversation}']")
        page.fill("#reply-body", text)
        page.click("#reply-form button[type=submit]")
        self.check(page.locator("#sent").count() == 1, "the page says the message is sent")
        self.check(page.locator("#thread").inner_text().find(text) >= 0, "the thread shows the reply")
        self.check(page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the thread fits the phone's width")
        with self.db() as db:
            stored = db.execute("SELECT COUNT(*) FROM messages_messages WHERE school_id = ? AND conversation_id = ? AND sender_id = ? AND body = ?",
                                (school, conversation, parent, text)).fetchone()[0]
        self.check(stored == 1, f"the reply is stored once ({stored})")
        return conversation

    def teacher(self, page, conversation, text):
        self.sign_in(page, "teacher@databayt.org", self.conversation()[0])
        page.goto(f"{self.base}/m/messages/conversations?c={conversation}")
        self.check(page.locator("#thread").inner_text().find(text) >= 0, "the teacher reads the guardian's reply")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--lang", choices=["ar", "en"], required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    run = Run(args)
    text = f"Thank you, I will check the homework tonight ({args.lang} {int(time.time())})"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        conversation = None
        try:
            for person in ("guardian", "teacher"):
                context = browser.new_context(viewport=PHONE)
                page = context.new_page()
                page.on("pageerror", lambda error: run.errors.append(str(error)))
                try:
                    if person == "guardian":
                        conversation = run.guardian(page, text)
                    elif conversation is not None:
                        run.teacher(page, conversation, text)
                except Exception as error:  # a missing element: this person's failure
                    run.check(False, f"{person}: {error}")
                context.close()
        finally:
            browser.close()
    run.check(run.errors == [], f"script errors: {run.errors}")
    print(f"{run.passed} passed, {len(run.failures)} failed")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
