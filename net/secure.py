"""The handshake's cryptography: the host's table key, the session key, seat proofs, sealing.

Standard library only (no new dependency): finite-field Diffie-Hellman over the RFC 3526
2048-bit MODP group 14 with ``pow``, and HMAC-SHA256 for everything derived from it.

* The host has a long-term **table key**: a private exponent ``x`` and its public value
  ``X = g^x mod p``. Its **fingerprint** (the first 20 hex digits of SHA-256 of ``X``) travels
  in the link (``?key=...``) and in the code look-up's answer, and the client pins it with the
  seat it was given. The key is kept in a small file beside the table's save (``SAVE.hostkey``)
  so a reopened table shows the same fingerprint.
* Each connection: the client sends a fresh ephemeral public value ``Y = g^y``; the host answers
  with ``X`` and a fresh nonce. Both compute ``s = Y^x = X^y`` and the **session key**
  ``K = HMAC(s, "tt2 session" | X | Y | nonce)``. Only the holder of ``x`` can compute ``K``.
* The host proves it holds ``x``: ``HMAC(K, "tt2 host")``. The client proves it holds a seat's
  secret ``t`` without sending it: ``HMAC(t, "tt2 seat" | K)``, worthless on any other
  connection (another nonce, another ``Y``) and toward any other host (another ``X``).
* A seat's secret given to a newcomer travels **sealed** under ``K`` (an HMAC keystream with a
  random salt, and an HMAC tag).

See ``docs/protocol.md`` §2 for the steps and the threat model.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

# RFC 3526, section 3: the 2048-bit MODP group (id 14), generator 2.
P_HEX = (
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
    "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
    "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA4836"
    "1C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804"
    "F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6"
    "955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF"
)
PRIME = int(P_HEX, 16)
G = 2
PUB_BYTES = 256
EXPONENT_BITS = 320  # private exponents: well above twice the group's ~112-bit strength
FINGERPRINT_HEX = 20
NONCE_BYTES = 32
MAC_BYTES = 32
SEAL_PREFIX = "s2."


class HandshakeError(Exception):
    """A handshake value that cannot be right (bad public value, failed tag)."""


def _int_bytes(n: int) -> bytes:
    return n.to_bytes(PUB_BYTES, "big")


def _mac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def fingerprint(pub: bytes) -> str:
    """The short public name of a table key (what links and look-up answers carry)."""
    return hashlib.sha256(pub).hexdigest()[:FINGERPRINT_HEX]


def is_fingerprint(text: object) -> bool:
    return (isinstance(text, str) and len(text) == FINGERPRINT_HEX
            and all(c in "0123456789abcdef" for c in text))


def check_public(pub: bytes) -> int:
    """The public value as an int; raises HandshakeError unless 2 <= Y <= p - 2."""
    if type(pub) is not bytes or len(pub) != PUB_BYTES:
        raise HandshakeError(f"a public value is {PUB_BYTES} bytes")
    y = int.from_bytes(pub, "big")
    if not 2 <= y <= PRIME - 2:
        raise HandshakeError("a public value out of range")
    return y


class KeyPair:
    """A private exponent and its public value (the host's table key, or a client's one-use key)."""

    def __init__(self, private: int | None = None) -> None:
        self.private = private if private is not None else (
            secrets.randbits(EXPONENT_BITS) | (1 << (EXPONENT_BITS - 1)))
        if not 2 <= self.private < PRIME - 1:
            raise HandshakeError("a private exponent out of range")
        self.public = _int_bytes(pow(G, self.private, PRIME))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def shared(self, other_pub: bytes) -> bytes:
        return _int_bytes(pow(check_public(other_pub), self.private, PRIME))


def session_key(shared: bytes, host_pub: bytes, client_pub: bytes, nonce: bytes) -> bytes:
    return _mac(shared, b"tt2 session", host_pub, client_pub, nonce)


def host_proof(key: bytes) -> bytes:
    return _mac(key, b"tt2 host")


def seat_proof(secret: str, key: bytes) -> bytes:
    """What a client sends instead of its seat's secret."""
    return _mac(secret.encode(), b"tt2 seat", key)


def find_secret(proof: bytes, key: bytes, secrets_: list[str]) -> str | None:
    """The one of ``secrets_`` that ``proof`` was made with on this session, if any."""
    found = None
    for s in secrets_:
        if hmac.compare_digest(seat_proof(s, key), proof):
            found = s
    return found


def _stream(key: bytes, salt: bytes, n: int) -> bytes:
    out = b""
    i = 0
    while len(out) < n:
        out += _mac(key, b"tt2 seal", salt, bytes([i]))
        i += 1
    return out[:n]


def seal(secret: str, key: bytes) -> str:
    """``secret`` encrypted and tagged under the session key, as printable text."""
    raw = secret.encode()
    salt = secrets.token_bytes(8)
    ct = bytes(a ^ b for a, b in zip(raw, _stream(key, salt, len(raw)), strict=True))
    tag = _mac(key, b"tt2 tag", salt, ct)[:16]
    return SEAL_PREFIX + base64.urlsafe_b64encode(salt + ct + tag).decode().rstrip("=")


def unseal(sealed: str, key: bytes) -> str:
    """The secret inside :func:`seal`'s text; raises HandshakeError if it was not made with
    ``key`` or was changed on the way."""
    if not isinstance(sealed, str) or not sealed.startswith(SEAL_PREFIX):
        raise HandshakeError("the seat's secret did not come sealed")
    body = sealed[len(SEAL_PREFIX):]
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except ValueError:
        raise HandshakeError("the sealed secret is not readable") from None
    if len(data) < 8 + 16 + 1:
        raise HandshakeError("the sealed secret is too short")
    salt, ct, tag = data[:8], data[8:-16], data[-16:]
    if not hmac.compare_digest(_mac(key, b"tt2 tag", salt, ct)[:16], tag):
        raise HandshakeError("the sealed secret was not made on this connection")
    raw = bytes(a ^ b for a, b in zip(ct, _stream(key, salt, len(ct)), strict=True))
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise HandshakeError("the sealed secret is not text") from None


# --- credentials: a seat's secret pinned to the table key that issued it -------------------


def credential(fp: str, secret: str) -> str:
    """What a client keeps (and the app remembers): ``FINGERPRINT:SECRET``."""
    return f"{fp}:{secret}"


def split_credential(token: str) -> tuple[str | None, str]:
    """(fingerprint or None, secret) of a remembered token; a bare secret has no fingerprint."""
    fp, sep, secret = token.partition(":")
    if sep and is_fingerprint(fp) and secret:
        return fp, secret
    return None, token


# --- the host's key file ------------------------------------------------------------------


def key_path_for(save_path: str | os.PathLike[str]) -> Path:
    """Where a table's key is kept: beside its save, ``SAVE.hostkey``."""
    p = Path(save_path)
    return p.with_name(p.name + ".hostkey")


def load_or_create(path: str | os.PathLike[str] | None) -> KeyPair:
    """The table key kept in ``path`` (made and written there, owner-only, if it is missing).

    ``None``: a fresh key for this run only. A damaged file raises ``ValueError`` naming the
    file (nobody's seat could be proven with a different key; the host must not guess)."""
    if path is None:
        return KeyPair()
    p = Path(path)
    if p.exists():
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
            return KeyPair(int(data["private"], 16))
        except (OSError, ValueError, KeyError, TypeError, HandshakeError) as e:
            raise ValueError(f"the table key file {p} is damaged ({e}); remove it to give the "
                             f"table a new key (everyone then joins again by code)") from None
    kp = KeyPair()
    text = json.dumps({"v": 1, "private": format(kp.private, "x"),
                       "fingerprint": kp.fingerprint})
    tmp = p.with_name(p.name + ".tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, p)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return kp
