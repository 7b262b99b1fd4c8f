"""Every console page as every demo role, on a 360 px phone, in Arabic and English.

Generated, not written by hand: each person signs in, and every link of their menu (and every
link those pages offer, once) is opened. A page fails on an HTTP error, on being wider than the
screen, on command-line words shown to a web user (`--student`, `hogwarts ...`), and on any
critical or serious finding of axe-core (the real engine, from axe-playwright-python), and on a
range of dates split across two lines.
`--only /m/reading/` walks one module's pages; `--open PATH` also opens PATH as every person,
menu or not, and reports each answer in the summary (a refusal there is not a failure; a 5xx is).
Prints one line per failure and a JSON summary; exits 1 on any failure.
"""

import argparse
import json
import re
import sys
from urllib.parse import urlparse

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from console_sign_in import submit_sign_in, use_language

PASSWORD = "1234"
PEOPLE = ["admin@databayt.org", "teacher@databayt.org", "student@databayt.org", "parent@databayt.org",
          "staff@databayt.org", "accountant@databayt.org", "dev@databayt.org", "admin@nile.databayt.org"]
# Command-line words: an option (`--student`), or the program's name before a command.
CLI_TEXT = re.compile(r"(?<![\w-])--[a-z][a-z-]+|\bhogwarts [a-z]")
# Ranges of dates (`ConsoleDates.range`: isolated, with a dash) whose characters sit on more than one line.
SPLIT_RANGES = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), split = [];
  for (let node; (node = walker.nextNode());) {
    for (const match of node.data.matchAll(/\u2066[^\u2069]*\u2013[^\u2069]*\u2069/g)) {
      const range = document.createRange();
      range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0), tops = rects.map(r => r.top);
      const lineHeight = Math.min(...rects.map(r => r.height));
      if (rects.length > 1 && Math.max(...tops) - Math.min(...tops) > lineHeight / 2) split.push(match[0].replace(/[\u2060\u2066\u2069]/g, ''));
    }
  }
  return split.slice(0, 3);
}"""
PAGES_PER_PERSON = 40
FOLLOWED_PER_PAGE = 3


def sign_in(page, base, email, lang):
    page.goto(base + "/sign-in")
    use_language(page, lang)
    if not submit_sign_in(page, email, PASSWORD):  # in two schools: the first one listed
        return False
    use_language(page, lang)
    return True


def links(page, base):
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(a => a.getAttribute('href'))")
    out = []
    for href in hrefs:
        if not href or href.startswith("#") or href.startswith("mailto:"):
            continue
        parsed = urlparse(href)
        if parsed.netloc and parsed.netloc != urlparse(base).netloc:
            continue
        path = parsed.path + (("?" + parsed.query) if parsed.query else "")
        if path.startswith("/") and not path.startswith(("/sign-out", "/console.", "/api/", "/openapi")):
            out.append(path)
    return out


def check_page(page, axe, name, failures):
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1] + 1:
        wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1 || el.getBoundingClientRect().left < -1)
            .filter(el => !el.closest('.table-wrap'))
            .slice(0, 3).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : ''))""")
        failures.append(f"{name}: {width[0]} px wide on a {width[1]} px screen ({', '.join(wide)})")
    text = page.inner_text("body")
    cli = CLI_TEXT.search(text)
    if cli:
        failures.append(f"{name}: command-line words on the page: {cli.group(0)!r}")
    for split in page.evaluate(SPLIT_RANGES):
        failures.append(f"{name}: a range of dates breaks across lines: {split!r}")
    results = axe.run(page)
    for violation in results.response.get("violations", []):
        if violation.get("impact") in ("critical", "serious"):
            targets = [node.get("target") for node in violation.get("nodes", [])][:3]
            failures.append(f"{name}: axe {violation['impact']} {violation['id']}: {violation.get('help')} at {targets}")


def walk(browser, base, email, lang, axe, failures, only="", opens=(), opened=None):
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    visited = 0
    try:
        if not sign_in(page, base, email, lang):
            failures.append(f"{lang} {email}: could not sign in")
            return 0
        whole_menu = links(page, base)
        menu = [path for path in whole_menu if path.startswith(only)]
        queue, seen = list(dict.fromkeys(menu)), set()
        while queue and visited < PAGES_PER_PERSON:
            path = queue.pop(0)
            if path in seen:
                continue
            seen.add(path)
            response = page.goto(base + path)
            visited += 1
            name = f"{lang} {email} {path}"
            if response is None or response.status >= 400:
                failures.append(f"{name}: HTTP {response.status if response else 'no answer'}")
                continue
            check_page(page, axe, name, failures)
            if path in menu:  # one level below the menu: the first few links each page offers
                offered = [link for link in links(page, base) if link.startswith(only) and link not in seen and link not in menu]
                queue.extend(offered[:FOLLOWED_PER_PAGE])
        for path in opens:  # menu or not: what this person gets
            response = page.goto(base + path)
            status = response.status if response else 0
            opened.append({"person": email, "lang": lang, "path": path, "status": status, "in_menu": path in whole_menu})
            if status == 0 or status >= 500:
                failures.append(f"{lang} {email} {path}: HTTP {status or 'no answer'}")
            else:
                check_page(page, axe, f"{lang} {email} {path} ({status})", failures)
    finally:
        context.close()
    return visited


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--only", default="", help="walk only the menu pages under this path")
    parser.add_argument("--open", action="append", default=[], help="also open this path as every person")
    args = parser.parse_args()
    failures, visits, opened = [], 0, []
    axe = Axe()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        for lang in ("ar", "en"):
            for email in PEOPLE:
                visits += walk(browser, args.base_url, email, lang, axe, failures, args.only, args.open, opened)
        browser.close()
    for failure in failures:
        print("FAILED: " + failure, file=sys.stderr)
    print(json.dumps({"visits": visits, "failures": len(failures), "opened": opened}))
    return 1 if failures or visits == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
