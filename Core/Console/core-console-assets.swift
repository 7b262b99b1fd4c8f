import HTTPTypes
import Hummingbird
import NIOCore

/// The console's one stylesheet and one small script, written here: no build step, no bundler.
/// Layout uses logical properties (`margin-inline-start`, `padding-block`), so the Arabic page
/// mirrors itself with `dir="rtl"` and nothing else.
enum ConsoleAssets {
    static func response(_ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=300"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let css = """
        :root { --ink: #1d2530; --muted: #4f5b69; --line: #c9d1db; --paper: #ffffff; --wash: #f3f5f8; --brand: #1f4e8c;
          --ok: #17663a; --warn: #8a5a00; --bad: #a32020; font-size: 100%; }
        * { box-sizing: border-box; }
        body { margin: 0; font-family: "Noto Sans Arabic", "Noto Sans", "DejaVu Sans", system-ui, sans-serif; color: var(--ink);
          background: var(--wash); line-height: 1.5; }
        a { color: var(--brand); }
        .skip { position: absolute; inset-inline-start: -999px; }
        .skip:focus { inset-inline-start: 0.5rem; inset-block-start: 0.5rem; background: var(--paper); padding: 0.5rem; z-index: 2; }
        .bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.25rem; padding-block: 0.6rem; padding-inline: 1rem;
          background: var(--brand); color: #fff; }
        .bar a, .bar .link { color: #fff; }
        .site { margin: 0; font-weight: 700; }
        nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0; }
        nav a { text-decoration: none; padding-block: 0.25rem; border-block-end: 2px solid transparent; }
        nav a[aria-current="page"] { border-block-end-color: #fff; font-weight: 700; }
        .who { margin-inline-start: auto; display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
        .role { opacity: 0.9; font-size: 0.9rem; }
        form.inline { display: inline; margin: 0; }
        button, .button { font: inherit; cursor: pointer; border-radius: 6px; border: 1px solid var(--line); background: var(--paper);
          color: var(--ink); padding-block: 0.45rem; padding-inline: 0.9rem; text-decoration: none; display: inline-block; min-block-size: 44px; }
        button.link { background: none; border: none; text-decoration: underline; padding-inline: 0.25rem; min-block-size: auto; }
        button.primary { background: var(--brand); color: #fff; border-color: var(--brand); }
        button.danger { background: var(--bad); color: #fff; border-color: var(--bad); }
        main { max-inline-size: 72rem; margin-inline: auto; padding-block: 1rem 3rem; padding-inline: 1rem; }
        main:focus { outline: none; }
        h1 { font-size: 1.6rem; margin-block: 0.5rem 1rem; }
        h2 { font-size: 1.15rem; margin-block: 0 0.5rem; }
        .lead { color: var(--muted); }
        .panel, .card, .module { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; }
        .panel { margin-block-end: 1rem; }
        .narrow { max-inline-size: 26rem; }
        .notice { background: #e6f4ea; border-inline-start: 4px solid var(--ok); padding-block: 0.5rem; padding-inline: 0.75rem; }
        .problem { background: #fdeaea; border-inline-start: 4px solid var(--bad); padding-block: 0.5rem; padding-inline: 0.75rem; color: var(--bad); }
        label { display: block; font-weight: 600; margin-block-end: 0.25rem; }
        input, select, textarea { font: inherit; padding-block: 0.45rem; padding-inline: 0.6rem; border: 1px solid var(--muted); border-radius: 6px;
          inline-size: 100%; max-inline-size: 28rem; min-block-size: 44px; background: var(--paper); color: var(--ink); }
        input[dir="ltr"] { text-align: start; }
        .field { margin-block-end: 1rem; }
        .field.invalid input, .field.invalid select, .field.invalid textarea { border-color: var(--bad); border-width: 2px; }
        .hint { color: var(--muted); font-size: 0.9rem; margin-block: 0.25rem 0; }
        code { font-size: 0.85rem; color: var(--muted); font-weight: 400; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(18rem, 1fr)); gap: 1rem; }
        .card p { margin-block: 0.25rem; }
        .big { font-size: 2rem; font-weight: 700; margin: 0; }
        .band-SATISFACTORY { color: var(--ok); } .band-AT_RISK { color: var(--warn); }
        .band-MODERATELY_CHRONIC, .band-SEVERELY_CHRONIC { color: var(--bad); }
        .modules { list-style: none; padding: 0; display: grid; gap: 0.75rem; }
        .module { display: flex; gap: 1rem; align-items: center; justify-content: space-between; }
        .module .about p { margin-block: 0.2rem; }
        .needs { color: var(--muted); font-size: 0.92rem; }
        .version { font-size: 0.8rem; color: var(--muted); font-weight: 400; }
        .switch { display: inline-flex; align-items: center; gap: 0.5rem; border-radius: 999px; padding-inline: 0.4rem 0.9rem; }
        .switch .knob { inline-size: 2.6rem; block-size: 1.4rem; border-radius: 999px; background: #9aa5b1; position: relative; }
        .switch .knob::after { content: ""; position: absolute; inset-block-start: 0.15rem; inset-inline-start: 0.15rem; inline-size: 1.1rem;
          block-size: 1.1rem; border-radius: 50%; background: #fff; }
        .switch[aria-checked="true"] .knob { background: var(--ok); }
        .switch[aria-checked="true"] .knob::after { inset-inline-start: auto; inset-inline-end: 0.15rem; }
        .actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
        ul.actions { list-style: none; padding: 0; margin: 0; }
        table { border-collapse: collapse; inline-size: 100%; background: var(--paper); }
        th, td { text-align: start; padding-block: 0.4rem; padding-inline: 0.6rem; border-block-end: 1px solid var(--line); }
        .table-wrap { overflow-x: auto; max-inline-size: 100%; }
        td bdi[dir="ltr"], th bdi[dir="ltr"] { white-space: nowrap; }
        .table-wrap input[type="checkbox"] { inline-size: 24px; block-size: 24px; }
        .choices { border: none; margin: 0; padding: 0; }
        .choices label { display: flex; gap: 0.5rem; align-items: center; min-block-size: 44px; font-weight: 400; margin: 0; }
        .choices input[type="checkbox"], .choices input[type="radio"] { inline-size: 24px; block-size: 24px; min-block-size: 24px; flex: none; }
        .register { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.4rem; }
        .register li { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding-block: 0.4rem; padding-inline: 0.6rem;
          display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.4rem; }
        .register fieldset { border: none; margin: 0; padding: 0; display: flex; gap: 0.25rem; }
        .register legend { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); }
        .register .choice input { position: absolute; opacity: 0; inline-size: 1px; block-size: 1px; }
        .register .choice span { display: inline-block; min-inline-size: 3.2rem; min-block-size: 44px; line-height: 44px; text-align: center;
          border: 1px solid var(--line); border-radius: 6px; padding-inline: 0.5rem; cursor: pointer; font-weight: 600; }
        .register .choice input:checked + span { background: var(--ink); color: #fff; border-color: var(--ink); }
        .register .choice input:focus-visible + span { outline: 3px solid var(--brand); outline-offset: 2px; }
        .register li.exception { border-color: var(--bad); border-width: 2px; }
        .day-off { border-inline-start: 4px solid var(--warn); }
        .day-off .warning { margin-block: 0 0.5rem; color: var(--warn); }
        .day-off .confirm { display: flex; gap: 0.5rem; align-items: center; margin: 0; }
        .day-off .confirm input { inline-size: 24px; block-size: 24px; min-block-size: 24px; flex: none; }
        .day-off .confirm label { margin: 0; }
        .sticky { position: sticky; inset-block-end: 0; background: var(--wash); padding-block: 0.75rem; display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
        .chart-figure { margin: 0; }
        .chart { max-inline-size: 100%; block-size: auto; }
        .chart text { font-size: 12px; fill: var(--ink); }
        .lessons { list-style: none; padding: 0; margin: 0; }
        .lessons li { padding-block: 0.35rem; border-block-end: 1px solid var(--line); }
        .lessons li.now { font-weight: 700; }
        .badge { display: inline-block; min-inline-size: 1.4rem; padding-inline: 0.35rem; border-radius: 999px; background: #fff; color: var(--brand);
          font-size: 0.8rem; font-weight: 700; text-align: center; line-height: 1.4rem; }
        .badge[hidden] { display: none; }
        .visually-hidden { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        @media (max-width: 40rem) { .module { flex-direction: column; align-items: stretch; } .who { margin-inline-start: 0; } }
        """

    /// Keeps the register's running count up to date as exceptions are tapped, and listens to the
    /// person's live events (`/live`): a badge counts what came, a region marked
    /// `data-live-refresh` is reloaded in place when an event for it comes (a conversation's thread,
    /// the notification list), and the status line says what came. Every page works without it.
    static let script = """
        (() => {
          const badges = document.querySelectorAll("[data-live-badge]");
          const regions = document.querySelectorAll("[data-live-refresh]");
          if ((badges.length === 0 && regions.length === 0) || !window.EventSource) return;
          const status = document.getElementById("live-status");
          const refresh = async (ids) => {
            const answer = await fetch(location.href, { credentials: "same-origin" });
            if (!answer.ok) return;
            const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
            for (const id of ids) {
              const old = document.getElementById(id), now = fresh.getElementById(id);
              // Never under the reader's hands: a region holding the focus waits for the next load.
              if (old && now && !old.contains(document.activeElement)) old.replaceWith(now);
            }
          };
          const source = new EventSource("/live");
          source.addEventListener("reset", () => refresh([...regions].map((r) => r.id)));
          for (const kind of new Set([...badges].map((b) => b.dataset.liveBadge))) {
            source.addEventListener(kind, (event) => {
              let item = {};
              try { item = JSON.parse(event.data); } catch { return; }
              for (const badge of document.querySelectorAll(`[data-live-badge="${kind}"]`)) {
                const count = Number(badge.dataset.count || "0") + 1;
                badge.dataset.count = String(count);
                badge.hidden = false;
                badge.querySelector(".count").textContent = String(count);
              }
              if (status && item.title) status.textContent = item.title;
              const link = item.metadata && item.metadata.link;
              const due = [...document.querySelectorAll("[data-live-refresh]")]
                .filter((r) => r.dataset.liveRefresh === kind || r.dataset.liveRefresh === link).map((r) => r.id);
              if (due.length > 0) refresh(due);
            });
          }
        })();

        // The register: Space on a student's chosen status moves to the next one (present, absent,
        // late) as a tap would; a page's result message takes the focus after a save; a form
        // marked data-submit-once sends once, its buttons disabled while the request runs.
        document.addEventListener("keydown", (event) => {
          const radio = event.target;
          if (event.key !== " " || !radio.matches || !radio.matches(".register input[type=radio]:checked")) return;
          const group = [...radio.closest("fieldset").querySelectorAll("input[type=radio]")];
          const next = group[(group.indexOf(radio) + 1) % group.length];
          event.preventDefault();
          next.checked = true;
          next.focus();
          next.dispatchEvent(new Event("change", { bubbles: true }));
        });
        document.addEventListener("DOMContentLoaded", () => {
          const result = document.querySelector("[data-focus-on-load]");
          if (result) result.focus();
          // A form carried over a sign-in (the session had ended) goes on to where it was going.
          const carried = document.querySelector("form[data-auto-submit]");
          if (carried) carried.requestSubmit();
        });
        document.addEventListener("submit", (event) => {
          const form = event.target;
          if (!form.matches("form[data-submit-once]")) return;
          if (form.dataset.sending) { event.preventDefault(); return; }
          form.dataset.sending = "1";
          for (const button of form.querySelectorAll("button")) { button.disabled = true; button.setAttribute("aria-busy", "true"); }
        });
        window.addEventListener("pageshow", (event) => {
          if (!event.persisted) return;
          for (const form of document.querySelectorAll("form[data-sending]")) {
            delete form.dataset.sending;
            for (const button of form.querySelectorAll("button")) { button.disabled = false; button.removeAttribute("aria-busy"); }
          }
        });

        document.addEventListener("change", (event) => {
          const list = event.target.closest(".register");
          if (!list) return;
          const item = event.target.closest("li");
          if (item) item.classList.toggle("exception", event.target.value !== "PRESENT");
          const count = document.getElementById("exceptions-count");
          if (count) count.textContent = String(list.querySelectorAll("li.exception").length);
        });
        """
}
