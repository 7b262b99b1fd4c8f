"""The console's sign-in through a real OpenID provider, in chromium (Playwright for Python).

Run by Tests/HostTests/openid-provider-tests.swift against a live `hogwarts serve` whose school
has the provider configured (django-oidc-provider, Tests/Browser/oidc_real_provider.py). From the
sign-in page: the provider's button, the provider's own form (email, password 1234), and back.
Prints one JSON line: where the browser ended, whether it is signed in, the name and role shown,
and the page's error sentence if any.
"""
import argparse
import json
import sys

from playwright.sync_api import sync_playwright


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    base = args.base_url.rstrip("/")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 360, "height": 800})
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/sign-in")
        page.click("a[href^='/sign-in/openid']")
        # The provider's own sign-in form.
        try:
            page.wait_for_selector("input[name='username']", timeout=20000)
        except Exception:
            print(json.dumps({"stuckAt": page.url, "text": page.locator("body").inner_text()[:600]}, ensure_ascii=False))
            return 1
        page.fill("input[name='username']", args.email)
        page.fill("input[name='password']", "1234")
        page.click("button[type='submit']")
        # Back on this site: the dashboard once the callback's page has moved on, else the sign-in
        # page's refusal. Not "networkidle": the dashboard keeps its live stream open, so the
        # network is never idle there, and on a loaded machine that wait ran out.
        page.wait_for_function("location.pathname === '/' || document.querySelector('.problem') !== null", timeout=60000)
        signed_in = page.locator("form[action='/sign-out']").count() == 1
        print(json.dumps({
            "path": page.evaluate("location.pathname"), "signedIn": signed_in,
            "name": page.locator(".who .name").inner_text() if signed_in else "",
            "role": page.locator(".who .role").inner_text() if signed_in else "",
            "error": page.locator(".problem").inner_text() if page.locator(".problem").count() else "",
            "scriptErrors": errors,
        }, ensure_ascii=False))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
