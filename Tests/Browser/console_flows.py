"""The web console in a real browser: Playwright for Python driving Debian's chromium.

Run by Tests/HostTests/console-browser-tests.swift against a live `hogwarts serve` on a demo
database, once per language. Each flow is what a person does; every page visited is also
checked for console errors, the language and direction, a title, one h1 and labelled controls.
Prints one JSON line of figures, then 'N passed, N failed'; exits non-zero on any failure.
"""
import argparse
import json
import sqlite3
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from console_sign_in import submit_sign_in, use_language

PASSWORD = "1234"



class PsqlReader:
    """The same reads on a PostgreSQL database, through `psql` (installed with the server): `?`
    placeholders become quoted literals, and each row comes back as JSON so numbers stay numbers."""

    def __init__(self, url):
        self.url = url

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def execute(self, sql, params=()):
        parts = sql.split("?")
        text = parts[0] + "".join("'" + str(value).replace("'", "''") + "'" + rest for value, rest in zip(params, parts[1:]))
        out = subprocess.run(["psql", self.url, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c",
                              f"SELECT row_to_json(q) FROM ({text}) q"], capture_output=True, text=True, check=True).stdout
        self.rows = [tuple(json.loads(line, object_pairs_hook=lambda pairs: [v for _, v in pairs])) for line in out.splitlines() if line]
        return self

    def fetchone(self):
        return self.rows[0] if self.rows else None

    def fetchall(self):
        return self.rows

class Run:
    def __init__(self, args):
        self.args = args
        self.base = args.base_url.rstrip("/")
        self.lang = args.lang
        self.failures = []
        self.passed = 0
        self.figures = {}
        self.errors = []
        # Marks entered before this run (the demo's own) are not this run's.
        self.started = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())

    def check(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            print(f"FAILED [{self.lang}]: {what}", file=sys.stderr)

    def db(self):
        if self.args.database.startswith(("postgres://", "postgresql://")):
            return PsqlReader(self.args.database)
        return sqlite3.connect(f"file:{self.args.database}?mode=ro", uri=True)

    # Every page: no script error, the language and its direction, a title, one h1, labelled controls.
    def audit(self, page, name):
        html = page.locator("html")
        expected_dir = "rtl" if self.lang == "ar" else "ltr"
        self.check(html.get_attribute("lang") == self.lang, f"{name}: html lang is {html.get_attribute('lang')}")
        self.check(html.get_attribute("dir") == expected_dir, f"{name}: html dir is {html.get_attribute('dir')}")
        self.check(page.title().strip() != "", f"{name}: page has a title")
        self.check(page.locator("h1").count() == 1, f"{name}: exactly one h1")
        problems = page.evaluate("""() => {
            const out = [];
            const ids = new Set();
            for (const el of document.querySelectorAll('[id]')) { if (ids.has(el.id)) out.push('duplicate id ' + el.id); ids.add(el.id); }
            const named = (el) => {
                if (el.getAttribute('aria-label')) return true;
                const by = el.getAttribute('aria-labelledby');
                if (by && by.split(/\\s+/).every(id => document.getElementById(id) && document.getElementById(id).textContent.trim())) return true;
                if (el.id && document.querySelector('label[for="' + el.id + '"]')) return true;
                if (el.closest('label')) return true;
                return false;
            };
            for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
                if (!named(el)) out.push('unlabelled ' + el.outerHTML.slice(0, 80));
            }
            for (const el of document.querySelectorAll('button, a[href]')) {
                if (!el.textContent.trim() && !named(el) && !el.getAttribute('title')) out.push('nameless ' + el.outerHTML.slice(0, 80));
            }
            for (const el of document.querySelectorAll('img')) { if (!el.hasAttribute('alt')) out.push('img without alt'); }
            for (const el of document.querySelectorAll('svg[role=img]')) { if (!el.querySelector('title')) out.push('chart without title'); }
            for (const el of document.querySelectorAll('[aria-describedby]')) {
                for (const id of el.getAttribute('aria-describedby').split(/\\s+/)) { if (!document.getElementById(id)) out.push('describedby missing ' + id); }
            }
            return out;
        }""")
        self.check(problems == [], f"{name}: accessibility problems {problems}")
        if self.args.screenshots:
            page.screenshot(path=f"{self.args.screenshots}/{self.lang}-{name}.png", full_page=True)

    def sign_in(self, page, email, school=None):
        page.goto(self.base + "/")
        self.check("/sign-in" in page.url, f"signed out, / goes to the sign-in form ({page.url})")
        use_language(page, self.lang)
        self.audit(page, "sign-in")
        signed_in = submit_sign_in(page, email, PASSWORD, school, by="label",
                                   on_picker=lambda: self.audit(page, "sign-in-choose-school"))
        self.check(signed_in, f"{email} is signed in")
        # The language is the person's, kept in their profile: switch it when it is not this run's.
        use_language(page, self.lang)
        self.check(page.locator("html").get_attribute("lang") == self.lang, f"{email}: console in {self.lang}")

    def sign_out(self, page):
        page.click("form[action='/sign-out'] button")
        self.check("/sign-in" in page.url, "signed out")

    def admin(self, page):
        self.sign_in(page, "admin@databayt.org")
        self.audit(page, "dashboard-admin")
        cookies = {c["name"]: c for c in page.context.cookies()}
        session = cookies.get("hogwarts_session", {})
        self.check(session.get("httpOnly") is True and session.get("sameSite") == "Strict", f"session cookie HttpOnly and SameSite=Strict: {session}")

        page.click("nav a[href='/admin/modules']")
        self.audit(page, "modules")
        menu = page.locator("nav a[href='/m/timetable/today']")
        self.check(menu.count() == 1, "timetable is in the menu while on")
        page.click("button[role=switch][data-module='timetable']")
        self.check(page.locator("button[role=switch][data-module='timetable']").get_attribute("aria-checked") == "false", "timetable switched off")
        self.check(page.locator("nav a[href='/m/timetable/today']").count() == 0, "timetable left the menu when off")
        response = page.goto(self.base + "/m/timetable/today")
        self.check(response.status == 404, f"a switched-off module's page is not there ({response.status})")
        # That 404 was asked for: chromium logs it as a console error, which is not one of the console's.
        self.errors = [e for e in self.errors if "404" not in e]
        page.goto(self.base + "/admin/modules")
        page.click("button[role=switch][data-module='timetable']")
        self.check(page.locator("button[role=switch][data-module='timetable']").get_attribute("aria-checked") == "true", "timetable switched on")
        self.check(page.locator("nav a[href='/m/timetable/today']").count() == 1, "timetable back in the menu")
        # Students is used by others: switching it off asks first, and cancelling changes nothing.
        page.click("button[role=switch][data-module='students']")
        self.audit(page, "modules-confirm-cascade")
        self.check(page.locator("form input[name=confirm][value=yes]").count() == 1, "switching off Students asks before cascading")
        page.click("main a[href='/admin/modules']")
        self.check(page.locator("button[role=switch][data-module='students']").get_attribute("aria-checked") == "true", "cancel keeps Students on")

        page.click("nav a[href='/admin/settings']")
        self.audit(page, "settings")
        field = "#setting-attendance-late-threshold-minutes"
        page.fill(field, "0")
        page.click("#settings-attendance button[type=submit]")
        self.check(page.locator(field).get_attribute("aria-invalid") == "true", "an out-of-range value is marked invalid")
        self.check(page.locator("#setting-attendance-late-threshold-minutes-error").count() == 1, "the field says what is wrong")
        self.audit(page, "settings-invalid")
        value = "20" if self.lang == "ar" else "25"
        page.fill(field, value)
        page.click("#settings-attendance button[type=submit]")
        self.check(page.locator(".notice[role=status]").count() == 1, "settings saved notice")
        with self.db() as db:
            stored = db.execute("SELECT value FROM kernel_settings WHERE key = 'attendance.late-threshold-minutes'").fetchone()
        self.check(stored is not None and stored[0] == value, f"the setting is in the database ({stored})")
        self.admin_dashboard(page)
        self.admin_audit(page)
        self.admin_users(page)
        self.sign_out(page)

    # Dashboards: charts drawn on the server as SVG, each with a title, a description and a table.
    def charts(self, page, name):
        charts = page.locator("svg.chart[role=img]")
        self.check(charts.count() >= 1, f"{name}: the dashboard draws charts ({charts.count()})")
        described = page.evaluate("""() => [...document.querySelectorAll('svg.chart[role=img]')].every(svg =>
            svg.querySelector('title') && svg.querySelector('title').textContent.trim() && svg.querySelector('desc') &&
            svg.closest('figure').querySelector('details table'))""")
        self.check(described, f"{name}: every chart has a title, a description and a table")
        expected = "rtl" if self.lang == "ar" else "ltr"
        directions = set(page.evaluate("() => [...document.querySelectorAll('svg.chart text[text-anchor=start]')].map(t => t.getAttribute('direction'))"))
        self.check(directions == {expected}, f"{name}: chart labels read {expected} ({directions})")

    def admin_dashboard(self, page):
        page.click("nav a[href='/']")
        self.check(page.locator("#card-attendance-term svg.chart").count() == 2, "attendance card: trend over the term and rate by class")
        self.check(page.locator("#card-grades-distribution svg.chart").count() >= 1, "grades card: distribution per subject")
        self.charts(page, "dashboard-admin-charts")

    def admin_audit(self, page):
        page.click("nav a[href='/admin/audit']")
        self.audit(page, "audit-log")
        self.check(page.locator("#audit-log tbody tr").count() >= 1, "the audit log lists entries")
        page.select_option("#audit-outcome", "SUCCEEDED")
        page.fill("#audit-action", "kernel.setting.set")
        # Read the filtered page, not the one being left: under load the click returned before it came.
        with page.expect_navigation():
            page.click("#audit-filters button[type=submit]")
        outcomes = page.locator("#audit-log td[data-outcome]").evaluate_all("cells => cells.map(c => c.dataset.outcome)")
        self.check(len(outcomes) >= 1 and set(outcomes) == {"SUCCEEDED"}, f"filtered by outcome and action ({outcomes})")
        page.fill("#audit-from", "2000-01-01")
        page.fill("#audit-to", "2000-01-02")
        with page.expect_navigation():
            page.click("#audit-filters button[type=submit]")
        self.check(page.locator("#audit-none").count() == 1, "a range with nothing says so")
        self.audit(page, "audit-log-empty")

    def admin_users(self, page):
        page.click("nav a[href='/m/auth/users']")
        self.audit(page, "users")
        page.fill("#users-search", "staff@databayt.org")
        page.click("#users-filter button[type=submit]")
        row = page.locator("tr[data-email='staff@databayt.org']")
        self.check(row.count() == 1, "the search finds the account")
        row.locator("select[name=role]").select_option("TEACHER")
        row.locator("form.role-form button[type=submit]").click()
        self.check(page.locator(".notice[role=status]").count() == 1, "role changed notice")
        with self.db() as db:
            role = db.execute("SELECT role FROM auth_users WHERE email = 'staff@databayt.org' AND school_id = (SELECT id FROM schools WHERE slug = 'demo')").fetchone()
        self.check(role is not None and role[0] == "TEACHER", f"the new role is in the database ({role})")
        row = page.locator("tr[data-email='staff@databayt.org']")
        row.locator("form.status-form button[type=submit]").click()
        self.check(page.locator("tr[data-email='staff@databayt.org']").get_attribute("data-status") == "ACTIVE", "one tap suspends nobody: the list asks first")
        page.locator("#users-confirm-suspend button[type=submit]").click()
        self.check(page.locator("tr[data-email='staff@databayt.org']").get_attribute("data-status") == "SUSPENDED", "the account is suspended")
        self.audit(page, "users-changed")
        # Put it back, so the other language's run starts from the same school.
        row = page.locator("tr[data-email='staff@databayt.org']")
        row.locator("form.status-form button[type=submit]").click()
        row = page.locator("tr[data-email='staff@databayt.org']")
        row.locator("select[name=role]").select_option("STAFF")
        row.locator("form.role-form button[type=submit]").click()
        with self.db() as db:
            back = db.execute("SELECT role, status FROM auth_users WHERE email = 'staff@databayt.org' AND school_id = (SELECT id FROM schools WHERE slug = 'demo')").fetchone()
        self.check(back is not None and tuple(back) == ("STAFF", "ACTIVE"), f"role and status restored ({back})")

    def teacher(self, page):
        self.sign_in(page, "teacher@databayt.org")
        self.audit(page, "dashboard-teacher")
        self.charts(page, "dashboard-teacher-charts")
        page.click("nav a[href='/m/timetable/today']")
        self.audit(page, "timetable-today")
        page.click("nav a[href='/m/students/classes']")
        self.audit(page, "class-lists")
        page.click("main a[href^='/m/students/classes?class='] >> nth=0")
        self.audit(page, "class-list")
        self.check(page.locator("main table tbody tr").count() >= 1, "a class list shows its students")
        page.click("nav a[href='/m/attendance/register']")
        self.audit(page, "register-classes")
        # Another class in each language, so each run takes a register nobody has taken today.
        page.click(f"main ul.lessons a >> nth={0 if self.lang == 'ar' else 1}")
        start = time.monotonic()
        page.wait_for_load_state("load")
        loaded = time.monotonic()
        self.audit(page, "register")
        class_code = page.locator("#register-form input[name=class]").get_attribute("value")
        rows = page.locator("ol.register > li")
        count = rows.count()
        self.check(count >= 3, f"the register lists the class ({count})")
        self.check(page.locator("ol.register input[value=PRESENT]:checked").count() == count, "everyone starts present")
        absent = rows.nth(1).locator("code").inner_text()
        late = rows.nth(2).locator("code").inner_text()
        tapped = time.monotonic()
        rows.nth(1).locator("label.choice", has=page.locator("input[value=ABSENT]")).click()
        rows.nth(2).locator("label.choice", has=page.locator("input[value=LATE]")).click()
        self.check(page.locator("#exceptions-count").inner_text() == "2", "the page counts two exceptions")
        if page.locator("#day-off-confirm").count() > 0:  # a run on a day the calendar calls a day off
            page.check("#day-off-confirm")
        page.click("#register-form button[type=submit]")
        page.wait_for_selector("#saved")
        done = time.monotonic()
        self.audit(page, "register-saved")
        self.figures["register_ms"] = round((done - start) * 1000)
        self.figures["register_save_ms"] = round((done - tapped) * 1000)
        self.figures["register_students"] = count
        with self.db() as db:
            rows_db = dict(db.execute("""
                SELECT s.gr_number, r.status FROM attendance_records r JOIN students_students s ON s.school_id = r.school_id AND s.id = r.student_id
                JOIN students_classes c ON c.school_id = r.school_id AND c.id = r.class_id
                WHERE c.code = ? AND r.period = 'DAY' AND r.date = (SELECT MAX(date) FROM attendance_records)
                """, (class_code,)).fetchall())
        self.check(rows_db.get(absent) == "ABSENT" and rows_db.get(late) == "LATE", f"the database has the two exceptions {absent}, {late}")
        self.check(sum(1 for s in rows_db.values() if s == "PRESENT") == count - 2, "everyone else is present in the database")
        self.grades(page)
        self.sign_out(page)

    # Grade entry: one of the teacher's assessments, a mark out of range refused beside its field
    # with nothing written, then one save of two marks, checked in the database.
    def grades(self, page):
        entry = page.locator("nav a[href='/m/grades/enter']")
        self.check(entry.count() == 1, "the teacher's menu has grade entry")
        entry.click()
        self.audit(page, "grades-pick")
        options = page.locator("#assessment option")
        self.check(options.count() >= 1, f"the teacher has assessments ({options.count()})")
        # Another assessment in each language, so each run writes its own marks.
        code = options.nth(0 if self.lang == "ar" else min(1, options.count() - 1)).get_attribute("value")
        page.select_option("#assessment", code)
        page.click("main form.actions button[type=submit]")
        self.audit(page, "grades-sheet")
        inputs = page.locator("#grades-form input[name^='mark.']")
        self.check(inputs.count() >= 2, f"the sheet lists the class ({inputs.count()})")
        first = inputs.nth(0).get_attribute("name")[len("mark."):]
        second = inputs.nth(1).get_attribute("name")[len("mark."):]
        inputs.nth(0).fill("9999")
        page.click("#grades-form button[type=submit]")
        page.wait_for_selector("#problems")
        self.audit(page, "grades-invalid")
        self.check(page.locator(f"[id='problem-{first}']").count() == 1, "the bad mark's problem is beside its field")
        self.check(self.marks(code, first, second) == {}, "nothing was written for a batch with a bad mark")
        page.locator(f"[id='mark-{first}']").fill("7")
        page.locator(f"[id='mark-{second}']").fill("absent")
        page.click("#grades-form button[type=submit]")
        page.wait_for_selector("#saved")
        self.audit(page, "grades-saved")
        marks = self.marks(code, first, second)
        self.check(marks.get(first) == ("SCORED", 7.0) and marks.get(second, ("",))[0] == "ABSENT", f"the database has both marks ({marks})")

    def marks(self, code, *grs):
        with self.db() as db:
            rows = db.execute(f"""
                SELECT s.gr_number, r.state, r.score FROM grades_results r
                JOIN grades_assessments a ON a.school_id = r.school_id AND a.id = r.assessment_id
                JOIN students_students s ON s.school_id = r.school_id AND s.id = r.student_id
                WHERE a.code = ? AND a.school_id = (SELECT id FROM schools WHERE slug = 'demo') AND s.gr_number IN ({",".join("?" * len(grs))})
                  AND r.entered_at >= ?
                """, (code, *grs, self.started)).fetchall()
        return {gr: (state, score) for gr, state, score in rows}

    def guardian(self, page):
        self.sign_in(page, "parent@databayt.org", school=None)
        self.audit(page, "dashboard-guardian")
        cards = page.locator(".card").count()
        self.check(cards >= 1, f"the guardian's dashboard has cards ({cards})")
        report = page.locator("nav a[href='/m/grades/report-card']")
        self.check(report.count() == 1, "the guardian's menu has report cards")
        report.click()
        self.audit(page, "report-card")
        self.check(page.locator("table").count() >= 1, "a published report card is shown")
        self.check(page.locator("nav a[href='/m/students/classes']").count() == 0, "a guardian's menu has no teacher's class lists")
        for path, name in (("/m/timetable/week", "timetable-week"), ("/m/messages/conversations", "messages"),
                           ("/m/notifications/list", "notifications")):
            link = page.locator(f"nav a[href='{path}']")
            self.check(link.count() == 1, f"the guardian's menu has {path}")
            link.click()
            self.audit(page, name)
        self.live(page)
        self.sign_out(page)

    def api(self, method, path, token=None, body=None):
        headers = {"Content-Type": "application/json", "Accept-Language": self.lang}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = json.dumps(body).encode() if body is not None else None
        with urllib.request.urlopen(urllib.request.Request(self.base + path, data=data, method=method, headers=headers), timeout=30) as answer:
            return json.loads(answer.read() or b"{}")

    def live(self, page):
        """An open tab hears what comes: a teacher's new message adds one to the menu's unread badge
        and appears in the open thread, with no reload (a marker set in the page survives)."""
        teacher = self.api("POST", "/api/mobile/auth", body={"identifier": "teacher@databayt.org", "password": PASSWORD})["access_token"]
        with self.db() as db:
            parent = db.execute("SELECT id FROM auth_users WHERE email = 'parent@databayt.org' AND school_id = (SELECT id FROM schools WHERE slug = 'demo')").fetchone()[0]
        conversation = self.api("POST", "/api/mobile/conversations", teacher, {"participant_ids": [parent]})["id"]
        page.goto(f"{self.base}/m/messages/conversations?c={conversation}")
        self.audit(page, "messages-thread")
        badge = "[data-live-badge='notification']"
        before = int(page.locator(badge).get_attribute("data-count"))
        page.evaluate("window.notReloaded = true")
        text = f"live {self.lang} {time.time()}"
        self.api("POST", f"/api/mobile/conversations/{conversation}/messages", teacher, {"content": text})
        # A selector, not a script: the console's CSP forbids eval, which a polled string predicate needs.
        page.locator(f"{badge}[data-count='{before + 1}']").wait_for(state="attached", timeout=30000)
        page.locator("#thread", has_text=text).wait_for(timeout=30000)
        self.check(page.locator(badge).is_visible(), "the unread badge shows")
        self.check(page.evaluate("window.notReloaded === true"), "the badge and the thread changed without a reload")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--lang", choices=["ar", "en"], required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshots")
    args = parser.parse_args()
    run = Run(args)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        for flow in (run.admin, run.teacher, run.guardian):
            # A phone-sized screen: the register must work one-handed.
            context = browser.new_context(viewport={"width": 390, "height": 844} if flow == run.teacher else {"width": 1280, "height": 900})
            page = context.new_page()
            page.on("console", lambda message: run.errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: run.errors.append(str(error)))
            try:
                flow(page)
            except Exception as error:  # a missing element: the flow's failure, then the next flow
                run.check(False, f"{flow.__name__}: {error}")
                if args.screenshots:
                    page.screenshot(path=f"{args.screenshots}/{args.lang}-{flow.__name__}-failure.png", full_page=True)
            context.close()
        browser.close()
    run.check(run.errors == [], f"browser console errors: {run.errors}")
    print(json.dumps({"lang": args.lang, **run.figures}))
    print(f"{run.passed} passed, {len(run.failures)} failed")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
