"""A stand-in OpenID issuer for the refusal tests: keys, a discovery document and signed tokens.

`setup DIR BASE_URL` writes two ES256 keys (`current` is in jwks.json, `retired` is not) and the
discovery document under DIR, for `python3 -m http.server --directory DIR` to serve.
`mint DIR` reads {"claims": {...}, "kid": "current"|"retired", "alg": "ES256"|"none"} on stdin
and prints a token signed with that key (with alg "none": no signature at all).

The tests' positive paths use a real provider (oidc_provider_flow.py); this only makes the
tokens a real provider would never hand out.
"""
import base64
import json
import os
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_jwk(key, kid):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
            "x": b64(numbers.x.to_bytes(32, "big")), "y": b64(numbers.y.to_bytes(32, "big"))}


def setup(folder, base_url):
    os.makedirs(os.path.join(folder, ".well-known"), exist_ok=True)
    keys = {}
    for kid in ("current", "retired"):
        key = ec.generate_private_key(ec.SECP256R1())
        keys[kid] = key
        with open(os.path.join(folder, kid + ".pem"), "wb") as file:
            file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(os.path.join(folder, "jwks.json"), "w") as file:
        json.dump({"keys": [public_jwk(keys["current"], "current")]}, file)
    with open(os.path.join(folder, ".well-known", "openid-configuration"), "w") as file:
        json.dump({"issuer": base_url, "jwks_uri": base_url + "/jwks.json",
                   "authorization_endpoint": base_url + "/authorize", "token_endpoint": base_url + "/token",
                   "response_types_supported": ["code"], "subject_types_supported": ["public"],
                   "id_token_signing_alg_values_supported": ["ES256"]}, file)


def mint(folder):
    spec = json.load(sys.stdin)
    kid = spec.get("kid", "current")
    alg = spec.get("alg", "ES256")
    header = {"alg": alg, "typ": "JWT", "kid": kid}
    signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(spec["claims"]).encode())
    if alg == "none":
        print(signing_input + ".")
        return
    # "sign_with": another key than the header names (a forged signature).
    with open(os.path.join(folder, spec.get("sign_with", kid) + ".pem"), "rb") as file:
        key = serialization.load_pem_private_key(file.read(), password=None)
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    print(signing_input + "." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big")))


if __name__ == "__main__":
    if sys.argv[1] == "setup":
        setup(sys.argv[2], sys.argv[3])
    else:
        mint(sys.argv[2])
