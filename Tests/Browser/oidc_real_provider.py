"""A real OpenID Connect provider on loopback for the tests: django-oidc-provider in a tiny Django site.

`serve --port P --folder DIR --redirect-uri URI --client-id ID --client-secret S --user EMAIL...`
makes the site's database in DIR, an RSA signing key (`creatersakey`), one confidential client and
one user per EMAIL (password 1234, email verified), then serves http://127.0.0.1:P until stopped.
Its issuer is http://127.0.0.1:P/openid.

`token --issuer URL --client-id ID --client-secret S --redirect-uri URI --email E --nonce N` runs
the authorization-code flow with a scripted HTTP client (sign in on the provider's form, take the
code from the redirect, exchange it) and prints the provider's id_token.
"""
import argparse
import os
import sys
import urllib.parse

import requests


def userinfo(claims, user):
    claims["email"] = user.email
    claims["email_verified"] = True
    claims["name"] = user.get_full_name() or user.email
    return claims


def login_view(request):
    from django.contrib.auth import authenticate, login
    from django.http import HttpResponse, HttpResponseRedirect
    from django.utils.html import escape

    following = request.GET.get("next") or request.POST.get("next") or "/"
    if request.method == "POST":
        user = authenticate(request, username=request.POST.get("username"), password=request.POST.get("password"))
        if user is not None:
            login(request, user)
            return HttpResponseRedirect(following)
    return HttpResponse(
        '<!doctype html><html lang="en"><title>Test provider</title><form method="post">'
        '<label>Email <input name="username"></label><label>Password <input name="password" type="password"></label>'
        '<input type="hidden" name="next" value="%s"><button type="submit">Sign in</button></form></html>' % escape(following))


urlpatterns = []


def configure(port, folder):
    import django
    from django.conf import settings
    from django.urls import include, path
    from django.views.decorators.csrf import csrf_exempt

    settings.configure(
        DEBUG=bool(os.environ.get("PROVIDER_DEBUG")), SECRET_KEY="test-provider-only", ALLOWED_HOSTS=["127.0.0.1", "localhost"], ROOT_URLCONF=__name__,
        INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oidc_provider"],
        MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware", "django.contrib.auth.middleware.AuthenticationMiddleware"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(folder, "provider.sqlite3")}},
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "APP_DIRS": True, "OPTIONS": {}}],
        USE_TZ=True, DEFAULT_AUTO_FIELD="django.db.models.AutoField", LOGIN_URL="/login/",
        SITE_URL="http://127.0.0.1:%d" % port, OIDC_USERINFO=__name__ + ".userinfo", OIDC_IDTOKEN_INCLUDE_CLAIMS=True,
    )
    django.setup()
    urlpatterns.extend([
        path("openid/", include("oidc_provider.urls", namespace="oidc_provider")),
        path("login/", csrf_exempt(login_view)),
    ])


def serve(arguments):
    configure(arguments.port, arguments.folder)
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from oidc_provider.models import Client, ResponseType
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    call_command("migrate", verbosity=0)
    call_command("creatersakey")
    client = Client.objects.create(name="Hogwarts", client_type="confidential", client_id=arguments.client_id,
                                   client_secret=arguments.client_secret, jwt_alg="RS256", require_consent=False, reuse_consent=True)
    client.redirect_uris = [arguments.redirect_uri]
    client.scope = ["openid", "email", "profile"]
    client.save()
    client.response_types.add(ResponseType.objects.get(value="code"))
    for email in arguments.user:
        User.objects.create_user(username=email, email=email, password="1234")

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = make_server("127.0.0.1", arguments.port, get_wsgi_application(), handler_class=Quiet)
    server.serve_forever()


def token(arguments):
    session = requests.Session()
    query = {"client_id": arguments.client_id, "redirect_uri": arguments.redirect_uri, "response_type": "code",
             "scope": "openid email profile", "state": "scripted", "nonce": arguments.nonce}
    answer = session.get(arguments.issuer + "/authorize?" + urllib.parse.urlencode(query), allow_redirects=True)
    login_url = answer.url
    following = urllib.parse.parse_qs(urllib.parse.urlparse(login_url).query).get("next", ["/"])[0]
    answer = session.post(login_url, data={"username": arguments.email, "password": "1234", "next": following}, allow_redirects=False)
    while answer.status_code in (301, 302, 303) and not answer.headers["Location"].startswith(arguments.redirect_uri):
        answer = session.get(urllib.parse.urljoin(answer.url, answer.headers["Location"]), allow_redirects=False)
    location = answer.headers.get("Location", "")
    code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query).get("code", [None])[0]
    if code is None:
        sys.exit("no code: %s %s" % (answer.status_code, answer.text[:500]))
    exchanged = session.post(arguments.issuer + "/token", data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": arguments.redirect_uri,
        "client_id": arguments.client_id, "client_secret": arguments.client_secret})
    print(exchanged.json()["id_token"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    serving = commands.add_parser("serve")
    serving.add_argument("--port", type=int, required=True)
    serving.add_argument("--folder", required=True)
    serving.add_argument("--user", action="append", default=[])
    flow = commands.add_parser("token")
    flow.add_argument("--issuer", required=True)
    flow.add_argument("--email", required=True)
    flow.add_argument("--nonce", required=True)
    for each in (serving, flow):
        each.add_argument("--client-id", required=True)
        each.add_argument("--client-secret", required=True)
        each.add_argument("--redirect-uri", required=True)
    parsed = parser.parse_args()
    serve(parsed) if parsed.command == "serve" else token(parsed)
