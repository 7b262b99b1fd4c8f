/// The shell's own templates. Values are escaped; `{{{body}}}` is HTML a template made.
enum ConsoleTemplates {
    static let layout = ConsoleTemplate("""
        <!DOCTYPE html>
        <html lang="{{lang}}" dir="{{dir}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · {{site}}</title>
        <link rel="stylesheet" href="/console.css">
        <script src="/console.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">{{skip}}</a>
        <header class="bar">
        <p class="site">{{site}}</p>
        {{#user}}
        <nav aria-label="{{navLabel}}"><ul>{{#nav}}<li><a href="{{href}}"{{#current}} aria-current="page"{{/current}}>{{label}}{{#badge}} <span class="badge" data-live-badge="{{kind}}" data-count="{{count}}"{{#hidden}} hidden{{/hidden}}><span class="count">{{count}}</span><span class="visually-hidden"> {{label}}</span></span>{{/badge}}</a></li>{{/nav}}</ul></nav>
        <p id="live-status" class="visually-hidden" role="status"></p>
        <div class="who">
        <bdi class="name">{{name}}</bdi> <span class="role">{{role}}</span>
        <form method="post" action="/language" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="back" value="{{back}}"><input type="hidden" name="lang" value="{{otherLang}}"><button type="submit" class="link" lang="{{otherLang}}" title="{{languageLabel}}">{{otherLangLabel}}</button></form>
        <form method="post" action="/sign-out" class="inline"><input type="hidden" name="_csrf" value="{{csrf}}"><button type="submit" class="link">{{signOut}}</button></form>
        </div>
        {{/user}}
        {{#anonymous}}
        <form method="post" action="/language" class="inline who"><input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="back" value="{{back}}"><input type="hidden" name="lang" value="{{otherLang}}"><button type="submit" class="link" lang="{{otherLang}}" title="{{languageLabel}}">{{otherLangLabel}}</button></form>
        {{/anonymous}}
        </header>
        <main id="main" tabindex="-1">
        <h1>{{title}}</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="problem" role="alert">{{error}}</p>{{/error}}
        {{{body}}}
        </main>
        </body>
        </html>
        """)

    static let signIn = ConsoleTemplate("""
        <form method="post" action="/sign-in" class="panel narrow" data-submit-once>
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="hidden" name="next" value="{{next}}">{{{resume}}}
        {{#fixedSchool}}<input type="hidden" name="school" value="{{id}}"><p class="lead" id="fixed-school">{{label}}</p>{{/fixedSchool}}
        <p><label for="email">{{emailLabel}}</label>
        <input id="email" name="email" type="email" autocomplete="username" required dir="ltr" value="{{email}}"></p>
        <p><label for="password">{{passwordLabel}}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required dir="ltr"{{#focusPassword}} autofocus{{/focusPassword}}></p>
        {{#hasSchools}}<p><label for="school">{{schoolLabel}}</label>
        <select id="school" name="school" required>{{#schools}}<option value="{{id}}">{{name}}</option>{{/schools}}</select></p>{{/hasSchools}}
        <p><button type="submit" class="primary">{{submit}}</button></p>
        <p class="hint">{{hint}}</p>
        {{#forgot}}<p><a href="/forgot-password">{{forgot}}</a></p>{{/forgot}}
        </form>
        {{{providers}}}
        """)

    /// The schools where the one password was right: the choice is sent with the signed ticket,
    /// never the password.
    static let schoolPicker = ConsoleTemplate("""
        <form method="post" action="/sign-in/school" class="panel narrow" data-submit-once>
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="hidden" name="ticket" value="{{ticket}}">
        <input type="hidden" name="next" value="{{next}}">{{{resume}}}
        <p><label for="school">{{schoolLabel}}</label>
        <select id="school" name="school" required>{{#schools}}<option value="{{id}}">{{name}}</option>{{/schools}}</select></p>
        <p><button type="submit" class="primary">{{submit}}</button></p>
        <p><a href="/sign-in">{{other}}</a></p>
        </form>
        """)

    /// The school accounts (OpenID providers) one can sign in with, on the sign-in and invitation pages.
    static let providerLinks = ConsoleTemplate("""
        <section class="panel narrow" aria-labelledby="providers-heading"><h2 id="providers-heading">{{heading}}</h2>
        <ul class="actions">{{#providers}}<li><a class="button" href="/sign-in/openid?provider={{id}}">{{label}}</a></li>{{/providers}}</ul>
        </section>
        """)

    /// "Forgot your password?", step 1: the email the code goes to.
    static let forgotPassword = ConsoleTemplate("""
        <form method="post" action="/forgot-password" class="panel narrow">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <p>{{intro}}</p>
        <p><label for="email">{{emailLabel}}</label>
        <input id="email" name="email" type="email" autocomplete="username" required dir="ltr" value="{{email}}"></p>
        <p><button type="submit" class="primary">{{submit}}</button></p>
        <p><a href="/sign-in">{{back}}</a></p>
        </form>
        """)

    /// An invitation's page: the password the invited person chooses.
    static let invitation = ConsoleTemplate("""
        {{#live}}<form method="post" action="/invitation" class="panel narrow">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <input type="hidden" name="token" value="{{token}}">
        {{#intro}}<p>{{intro}}</p>{{/intro}}
        <p><label for="password">{{passwordLabel}}</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required dir="ltr" aria-describedby="password-hint">
        <span id="password-hint" class="hint">{{passwordHint}}</span></p>
        <p><button type="submit" class="primary">{{submit}}</button></p>
        </form>
        {{{providers}}}{{/live}}
        {{^live}}<p class="panel narrow"><a href="/sign-in">{{back}}</a></p>{{/live}}
        """)

    /// Step 2: the emailed code and the new password.
    static let newPassword = ConsoleTemplate("""
        <form method="post" action="/forgot-password/new" class="panel narrow">
        <input type="hidden" name="_csrf" value="{{csrf}}">
        <p>{{intro}}</p>
        <p><label for="email">{{emailLabel}}</label>
        <input id="email" name="email" type="email" autocomplete="username" required dir="ltr" value="{{email}}"></p>
        <p><label for="code">{{codeLabel}}</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required dir="ltr"></p>
        <p><label for="password">{{passwordLabel}}</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required dir="ltr" aria-describedby="password-hint">
        <span id="password-hint" class="hint">{{passwordHint}}</span></p>
        <p><button type="submit" class="primary">{{submit}}</button></p>
        <p><a href="/forgot-password">{{again}}</a></p>
        </form>
        """)

    static let dashboard = ConsoleTemplate("""
        <p class="lead">{{greeting}}</p>
        {{#empty}}<p>{{empty}}</p>{{/empty}}
        <div class="cards">
        {{#cards}}<section class="card" id="card-{{id}}" aria-labelledby="card-{{id}}-title"><h2 id="card-{{id}}-title">{{title}}</h2>{{{html}}}</section>{{/cards}}
        </div>
        """)

    static let modules = ConsoleTemplate("""
        <p class="lead">{{intro}}</p>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="problem" role="alert">{{error}}</p>{{/error}}
        <ul class="modules">
        {{#modules}}<li class="module" id="module-{{id}}">
        <div class="about"><h2 id="module-{{id}}-name">{{name}} <span class="version" dir="ltr">{{version}}</span></h2>
        <p>{{summary}}</p>
        {{#needs}}<p class="needs">{{needs}}</p>{{/needs}}
        {{#usedBy}}<p class="needs">{{usedBy}}</p>{{/usedBy}}
        {{#missing}}<p class="needs">{{missing}}</p>{{/missing}}
        {{#locked}}<p class="needs">{{locked}}</p>{{/locked}}</div>
        {{#switchable}}<form method="post" action="/admin/modules" class="switch-form">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="module" value="{{id}}"><input type="hidden" name="turn" value="{{turn}}">
        <button type="submit" class="switch" role="switch" aria-checked="{{#on}}true{{/on}}{{^on}}false{{/on}}" aria-labelledby="module-{{id}}-name" title="{{action}}" data-module="{{id}}"><span class="knob" aria-hidden="true"></span><span class="state">{{state}}</span></button>
        </form>{{/switchable}}
        {{^switchable}}<p class="state fixed">{{state}}</p>{{/switchable}}
        </li>{{/modules}}
        </ul>
        """)

    static let confirmCascade = ConsoleTemplate("""
        <div class="panel">
        <p>{{question}}</p>
        <ul>{{#dependents}}<li>{{.}}</li>{{/dependents}}</ul>
        <p>{{kept}}</p>
        <form method="post" action="/admin/modules" class="actions">
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="module" value="{{module}}">
        <input type="hidden" name="turn" value="off"><input type="hidden" name="confirm" value="yes">
        <button type="submit" class="danger">{{confirm}}</button>
        <a href="/admin/modules" class="button">{{cancel}}</a>
        </form>
        </div>
        """)

    static let settings = ConsoleTemplate("""
        <p class="lead">{{intro}}</p>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="problem" role="alert">{{error}}</p>{{/error}}
        {{#groups}}<form method="post" action="/admin/settings" class="panel settings" id="settings-{{module}}" aria-labelledby="settings-{{module}}-title" novalidate>
        <h2 id="settings-{{module}}-title">{{name}}</h2>
        <input type="hidden" name="_csrf" value="{{csrf}}"><input type="hidden" name="module" value="{{module}}">
        {{#fields}}<div class="field{{#invalid}} invalid{{/invalid}}">
        {{#labelled}}<label for="{{id}}">{{label}}</label>{{/labelled}}
        {{#flag}}<div class="choices"><input type="hidden" name="{{name}}" value="false"><label><input id="{{id}}" name="{{name}}" type="checkbox" value="true"{{#checked}} checked{{/checked}}{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#invalid}} aria-invalid="true"{{/invalid}}> {{label}}</label></div>{{/flag}}
        {{#days}}<fieldset class="choices" id="{{id}}"{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}><legend><strong>{{label}}</strong></legend><input type="hidden" name="{{name}}" value="">
        {{#choices}}<label><input id="{{id}}-{{value}}" name="{{name}}" type="checkbox" value="{{value}}"{{#checked}} checked{{/checked}}> {{day}}</label>{{/choices}}</fieldset>{{/days}}
        {{#input}}<input id="{{id}}" name="{{name}}" type="{{type}}" value="{{value}}" dir="ltr"{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#invalid}} aria-invalid="true"{{/invalid}}>{{/input}}
        {{#number}}<input id="{{id}}" name="{{name}}" type="number" inputmode="numeric" min="{{min}}" max="{{max}}" value="{{value}}" dir="ltr"{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#invalid}} aria-invalid="true"{{/invalid}}>{{/number}}
        {{#select}}<select id="{{id}}" name="{{name}}"{{#describedby}} aria-describedby="{{describedby}}"{{/describedby}}{{#invalid}} aria-invalid="true"{{/invalid}}>{{#choices}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/choices}}</select>{{/select}}
        {{#hint}}<p class="hint" id="{{id}}-hint">{{hint}}</p>{{/hint}}
        {{#error}}<p class="problem" id="{{id}}-error">{{error}}</p>{{/error}}
        </div>{{/fields}}
        {{#files}}<p class="hint">{{files}}</p>{{/files}}
        <p><button type="submit" class="primary">{{save}}</button></p>
        </form>{{/groups}}
        """)
}
