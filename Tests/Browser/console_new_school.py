"""A new school from zero, in a real browser, timed.

Run by Tests/HostTests/console-new-school-tests.swift. Only the first administrator is made on
the command line (`hogwarts school create`); everything after is done in the console by the
people who would do it: the administrator sets the mail up, the school year, a term, a year
level, a class and two subjects, invites a teacher and a parent, imports the roster from a CSV
file, links the parent to a child, adds the day's periods and builds a two-week timetable; the
teacher accepts her invitation from the mail, takes a register, sets a quiz and enters its marks;
the administrator publishes the term's report cards; the parent accepts hers and reads her
child's report card. Mail leaves through `HOGWARTS_SENDMAIL` into files this script reads.
Afterwards the database is checked. Prints one JSON line of figures (each step's seconds and the
whole), then 'N passed, N failed'; exits non-zero on any failure.
"""
import argparse
import datetime
import email
import email.policy
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from console_sign_in import submit_sign_in, use_language

ADMIN, TEACHER, PARENT = "head@new.example.org", "ms.amna@new.example.org", "parent.salma@new.example.org"
PASSWORDS = {ADMIN: "Orchard-Lamp-2026", TEACHER: "Blue-Nile-River-7", PARENT: "Acacia-Shade-42"}
STUDENTS = 12


class Flow:
    def __init__(self, args):
        self.args = args
        self.failures = []
        self.passed = 0
        self.steps = {}
        self.today = datetime.date.today()
        # What a person would do, counted: forms sent and fields filled in.
        self.forms = 0
        self.fields = 0
        self.placed = 0

    def check(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            print(f"FAILED: {what}", file=sys.stderr)
        return condition

    def step(self, name, work):
        started = time.monotonic()
        work()
        self.steps[name] = round(time.monotonic() - started, 1)

    def db(self, sql, params=()):
        with sqlite3.connect(f"file:{self.args.database}?mode=ro", uri=True) as connection:
            return connection.execute(sql, params).fetchall()

    # A form on the page, found by its selector: each named field filled (a select chosen by
    # value, a box ticked), then its own submit button pressed; waits for the next page.
    def submit(self, page, form, fields, button="button[type=submit]"):
        scope = page.locator(form)
        self.forms += 1
        self.fields += len(fields)
        for name, value in fields.items():
            field = scope.locator(f"[name='{name}']").first
            kind = field.evaluate("el => el.tagName.toLowerCase() + ':' + (el.type || '')")
            if kind.startswith("select"):
                field.select_option(value)
            elif kind.endswith(":checkbox"):
                field.set_checked(bool(value))
            else:
                field.fill(value)
        with page.expect_navigation():
            scope.locator(button).first.click()

    def no_problem(self, page, what):
        problems = page.locator(".problem").all_inner_texts()
        return self.check(problems == [], f"{what}: {problems}")

    def sign_in(self, page, who):
        page.goto(self.args.base_url + "/sign-in")
        use_language(page, "en")
        self.check(submit_sign_in(page, who, PASSWORDS[who]), f"{who} signs in")
        use_language(page, "en")

    def sign_out(self, page):
        page.click("form[action='/sign-out'] button")

    # The invitation mailed to `who`: its link, once the outbox has sent it.
    def invitation(self, who):
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            for path in glob.glob(os.path.join(self.args.mail_dir, "*.eml")):
                with open(path, "rb") as file:
                    message = email.message_from_binary_file(file, policy=email.policy.default)
                if who not in str(message["To"]):
                    continue
                text = message.get_body(preferencelist=("plain",)).get_content()
                found = re.search(r"https?://\S+/invitation\?token=[A-Za-z0-9._-]+", text)
                if found:
                    return found.group(0)
            time.sleep(1)
        self.check(False, f"an invitation mail reached {who}")
        return None

    def accept(self, page, who):
        link = self.invitation(who)
        if not link:
            return
        page.goto(link)
        page.fill("input[name=password]", PASSWORDS[who])
        with page.expect_navigation():
            page.click("form[action='/invitation'] button[type=submit]")
        self.sign_in(page, who)

    # The administrator's part, before anyone else comes.
    def set_up(self, page):
        base = self.args.base_url
        self.sign_in(page, ADMIN)
        page.goto(base + "/admin/settings")
        self.submit(page, "#settings-notifications", {"setting.notifications.email-from": "office@new.example.org",
                                                      "setting.notifications.site-url": base})
        self.no_problem(page, "mail settings")

        year_start, year_end = self.today - datetime.timedelta(days=120), self.today + datetime.timedelta(days=200)
        term_start, term_end = self.today - datetime.timedelta(days=40), self.today + datetime.timedelta(days=40)
        self.year = f"{year_start.year}-{year_end.year}"
        page.goto(base + "/m/students/setup")
        self.submit(page, "#setup-year", {"name": self.year, "starts_on": year_start.isoformat(), "ends_on": year_end.isoformat()})
        self.submit(page, "#setup-term", {"school_year": self.year, "name_ar": "الفصل الأول", "name_en": "Term 1",
                                          "starts_on": term_start.isoformat(), "ends_on": term_end.isoformat()})
        self.submit(page, "#setup-level", {"code": "G1", "name_ar": "الصف الأول", "name_en": "Grade 1", "position": "1"})
        self.submit(page, "#setup-class", {"code": "1A", "name_ar": "الأول أ", "name_en": "Grade 1 A", "year_level": "G1", "capacity": "30"})
        self.submit(page, "#setup-subject", {"code": "MATH", "name_ar": "الرياضيات", "name_en": "Mathematics", "credits": "4"})
        self.submit(page, "#setup-subject", {"code": "SCI", "name_ar": "العلوم", "name_en": "Science", "credits": "3"})
        self.no_problem(page, "the school's set-up")

        page.goto(base + "/m/auth/users")
        self.submit(page, "#invite-form", {"email": TEACHER, "name": "Amna Osman", "role": "TEACHER"})
        self.submit(page, "#invite-form", {"email": PARENT, "name": "Salma Idris", "role": "GUARDIAN"})
        self.no_problem(page, "invitations")

        page.goto(base + "/m/students/setup")
        for subject in ["MATH", "SCI"]:
            self.submit(page, "#setup-teach", {"teacher": TEACHER, "class": "1A", "subject": subject})
        self.no_problem(page, "who teaches what")

    def roster(self, page):
        base = self.args.base_url
        rows = ["gr_number,given_name,surname,name_language,date_of_birth,gender,status,enrolled_on,class"]
        for number in range(1, STUDENTS + 1):
            rows.append(f"NS-{number:03d},Child{number},Family{number},en,2019-0{1 + number % 9}-1{number % 9},"
                        f"{'FEMALE' if number % 2 else 'MALE'},ACTIVE,{self.today.isoformat()},1A")
        path = os.path.join(self.args.mail_dir, "..", "roster.csv")
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n".join(rows) + "\n")
        page.goto(base + "/m/students/import")
        page.set_input_files("#import-file", path)
        with page.expect_navigation():
            page.click("#import-form button[type=submit]")
        self.no_problem(page, "the roster file checks")
        with page.expect_navigation():
            page.click("form[action='/m/students/import'] button.primary")
        self.no_problem(page, "the roster imports")

        page.goto(base + "/m/students/students?search=NS-001")
        with page.expect_navigation():
            page.click("#students a.row-link")
        self.submit(page, "#guardian-form", {"guardian.given_name": "Salma", "guardian.surname": "Idris", "guardian.email": PARENT,
                                            "guardian.relation": "MOTHER"})
        self.no_problem(page, "the parent linked to her child")

    def timetable(self, page):
        base = self.args.base_url
        page.goto(base + "/m/timetable/periods")
        for code, starts, ends in [("P1", "08:00", "08:45"), ("P2", "08:45", "09:30")]:
            self.submit(page, "#record-form", {"code": code, "name.ar": f"الحصة {code[1]}", "name.en": f"Period {code[1]}",
                                               "starts_at": starts, "ends_at": ends})
        self.no_problem(page, "periods")
        # Two weeks: mathematics and science in turn, Week A and Week B differing on each day.
        page.goto(base + "/m/timetable/builder?class=1A")
        placed = 0
        while True:
            links = page.locator("#builder-grid a.button")
            if links.count() == 0:
                break
            label = links.first.get_attribute("aria-label") or ""
            with page.expect_navigation():
                links.first.click()
            subject = "MATH" if placed % 2 == 0 else "SCI"
            self.submit(page, "#place", {"teaching": f"{subject}|{TEACHER}", "room": "R-1A"})
            if not self.no_problem(page, f"placing {label}"):
                return
            placed += 1
            self.placed = placed

    def teacher(self, page):
        base = self.args.base_url
        self.accept(page, TEACHER)
        page.goto(base + "/m/attendance/register?class=1A")
        page.locator("ol.register > li").first.locator("input[value=ABSENT]").check()
        anyway = page.locator("#day-off-confirm")
        if anyway.count() > 0:  # today is a day off on the school's calendar (a weekend): it asks first
            anyway.check()
        with page.expect_navigation():
            page.click("#register-form button[type=submit]")
        self.check(page.locator("#saved").count() == 1, "the register is saved")

        page.goto(base + "/m/grades/assessments")
        term = page.locator("#record-term option").first.get_attribute("value")
        self.submit(page, "#record-form", {"title": "First quiz", "class_code": "1A", "subject_code": "MATH", "term": term, "kind": "QUIZ",
                                           "date": self.today.isoformat(), "max_marks": "20", "passing_marks": "10",
                                           "category": "coursework", "code": "1A-MATH-Q1"})
        self.no_problem(page, "the quiz is set")
        page.goto(base + "/m/grades/enter?assessment=1A-MATH-Q1")
        marks = page.locator("input[name^='mark.']")
        for index in range(marks.count()):
            marks.nth(index).fill(str(8 + index % 12))
        with page.expect_navigation():
            page.click("#grades-form button.primary")
        self.check(page.locator("#saved").count() == 1, "the marks are saved")
        self.sign_out(page)

    def publish(self, page):
        self.sign_in(page, ADMIN)
        page.goto(self.args.base_url + "/m/grades/publish")
        with page.expect_navigation():
            page.click("#publish-form button[type=submit]")
        with page.expect_navigation():  # the first press only asks
            page.click("#publish-confirm button[type=submit]")
        self.check(page.locator("#published").count() == 1, "the term's report cards are published")
        self.sign_out(page)

    def parent(self, page):
        self.accept(page, PARENT)
        page.goto(self.args.base_url + "/m/grades/report-card")
        text = page.locator("main").inner_text()
        self.check("Mathematics" in text, "the parent reads her child's report card with its mathematics mark")

    def verify(self):
        school = self.db("SELECT id FROM schools WHERE slug = 'new'")[0][0]
        count = lambda sql: self.db(sql, (school,))[0][0]
        self.check(count("SELECT COUNT(*) FROM students_students WHERE school_id = ?") == STUDENTS, "the roster's students are in the database")
        self.check(count("SELECT COUNT(*) FROM timetable_slots WHERE school_id = ?") == self.placed and self.placed >= 10,
                   f"every placed lesson is in the database ({self.placed})")
        self.check(count("SELECT COUNT(*) FROM timetable_slots WHERE school_id = ? AND week = 1") > 0, "Week B has its own lessons")
        self.check(count("SELECT COUNT(*) FROM attendance_records WHERE school_id = ? AND status = 'ABSENT'") == 1, "one absence recorded")
        self.check(count("SELECT COUNT(*) FROM grades_results WHERE school_id = ?") == STUDENTS, "a mark per student")
        self.check(count("SELECT COUNT(*) FROM grades_publications WHERE school_id = ?") == 1, "the term is published")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--mail-dir", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    args.base_url = args.base_url.rstrip("/")
    flow = Flow(args)
    started = time.monotonic()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.on("response", lambda response: response.status >= 400 and flow.check(False, f"{response.status} for {response.url}"))
        try:
            flow.step("set-up", lambda: flow.set_up(page))
            flow.step("roster", lambda: flow.roster(page))
            flow.step("timetable", lambda: flow.timetable(page))
            flow.sign_out(page)
            flow.step("teacher", lambda: flow.teacher(page))
            flow.step("publish", lambda: flow.publish(page))
            flow.step("parent", lambda: flow.parent(page))
        except Exception as error:  # a step that could not go on: the rest would only fail after it
            flow.check(False, f"the flow stopped: {error}")
        browser.close()
    seconds = round(time.monotonic() - started, 1)
    try:
        flow.verify()
    except Exception as error:
        flow.check(False, f"the database check: {error}")
    print(json.dumps({"seconds": seconds, "steps": flow.steps, "forms": flow.forms, "fields": flow.fields, "lessons placed": flow.placed}))
    print(f"{flow.passed} passed, {len(flow.failures)} failed")
    sys.exit(1 if flow.failures else 0)


if __name__ == "__main__":
    main()
