"""Signing in to the web console, as every browser script here does it (Playwright for Python)."""

import time
from urllib.parse import urljoin

# Sign-in is limited per address (10 a minute, the form and the school picker alike): a script
# that signs many people in from one address waits as the answer's Retry-After says, as a person
# would, and starts again, this many times at most.
THROTTLED_RETRIES = 8
# The limit's spacing between attempts once its first ten are used: 60 s / 10.
SPACING = 6


def use_language(page, lang):
    """Switches the page to `lang` unless it is already in it: before signing in the language is a
    cookie, afterwards it is the person's profile."""
    if page.locator("html").get_attribute("lang") != lang:
        page.click(f"form[action='/language'] button[lang='{lang}']")


def submit_sign_in(page, email, password, school=None, by="value", on_picker=None):
    """Fills and sends the sign-in form on the current page. An email whose password is right in
    two schools gets the school picker: `school` is chosen there (its option's value, or its label
    with `by="label"`), else the first one listed; the password is typed once. `on_picker` runs when
    the picker shows (a script's own checks). Returns whether the console shows its sign-out form."""
    choosing_takes = 0
    for _ in range(THROTTLED_RETRIES):
        if page.locator("#email").count() == 0:
            page.goto(urljoin(page.url, "/sign-in"))
        page.fill("#email", email)
        page.fill("#password", password)
        if throttled(send(page, "form[action='/sign-in'] button[type=submit]")):
            continue
        if page.locator("#school").count() > 0:
            if on_picker:
                on_picker()
            if school:
                page.select_option("#school", **{by: school})
            time.sleep(choosing_takes)
            if throttled(send(page, "form[action='/sign-in/school'] button[type=submit]")):
                # The picker counts as an attempt too, and a refused one starts over from the
                # password: choose as slowly as a person, one attempt's spacing, or the password
                # would take every free attempt and the picker never get one.
                choosing_takes = SPACING
                continue
        break
    return page.locator("form[action='/sign-out']").count() == 1


def send(page, button):
    """Clicks a form's button and returns the answer the page then shows."""
    with page.expect_navigation() as sent:
        page.click(button)
    return sent.value


def throttled(answer):
    """Whether the answer was sign-in's 429; if so, after waiting as it asks."""
    if answer is None or answer.status != 429:
        return False
    time.sleep(int(answer.headers.get("retry-after", "6")))
    return True
