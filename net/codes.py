"""Table codes and join links.

A table code is :data:`CODE_LENGTH` letters from :data:`ALPHABET`: no digits and none of the
look-alike letters I, L, O. Codes are read case-insensitively, ignoring spaces and dashes.

A link carries the host's address, TCP port and code::

    teetable://192.168.1.5:47800/3f09c2a1d4e5b6a7980f/KQXF

The 20 hex digits before the code (optional) are the link's ``key``: the fingerprint of the
host's table key (``net.secure``); ``teetable://KEY@HOST:PORT/CODE`` is read too. A client that
joins by the link only talks to a host that proves it holds that key. A link without it still
works (the client then learns the key from the host and pins it with its seat).

Also accepted when joining (chat programs only make ``http`` links clickable, and people paste
what they see): ``http://192.168.1.5:47800/KQXF``, ``https://...``, and the bare
``192.168.1.5:47800/KQXF`` or ``192.168.1.5:47800`` (join by address, no code). An IPv6 address
goes in brackets: ``teetable://[fd00::5]:47800/KQXF``. The port may be left out and defaults to
:data:`DEFAULT_PORT`.
"""

from __future__ import annotations

import ipaddress
import re
import secrets
from dataclasses import dataclass

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"  # no I, L, O (nor digits 0, 1)
CODE_LENGTH = 4
DEFAULT_PORT = 47800
DISCOVERY_PORT = 47801
SCHEME = "teetable"
_SCHEMES = ("teetable", "http", "https")


class LinkError(ValueError):
    """A code, link or address that cannot be read; the message says what is wrong."""


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def normalize_code(text: str) -> str:
    """Upper-case ``text``, drop spaces and dashes, check every letter; raise LinkError."""
    if not isinstance(text, str):
        raise LinkError("a table code must be text")
    code = re.sub(r"[\s\-]", "", text).upper()
    if not code:
        raise LinkError("the table code is empty")
    if len(code) != CODE_LENGTH:
        raise LinkError(f"a table code has {CODE_LENGTH} letters; {text!r} has {len(code)}")
    bad = sorted({c for c in code if c not in ALPHABET})
    if bad:
        hint = ""
        if any(c in "0O1IL" for c in bad):
            hint = " (codes never use 0, O, 1, I or L)"
        raise LinkError(f"{text!r} is not a table code: {''.join(bad)!r} cannot appear{hint}")
    return code


@dataclass(frozen=True)
class Link:
    host: str
    port: int
    code: str | None = None
    key: str | None = None  # the host key's fingerprint, when known

    def __str__(self) -> str:
        return make_link(self.host, self.port, self.code, self.key)

    @property
    def address(self) -> str:
        h = f"[{self.host}]" if ":" in self.host else self.host
        return f"{h}:{self.port}"


def make_link(host: str, port: int, code: str | None, key: str | None = None) -> str:
    h = f"[{host}]" if ":" in host else host
    tail = (f"/{key}" if key else "") + (f"/{code}" if code else "")
    return f"{SCHEME}://{h}:{port}{tail}"


_KEY = re.compile(r"^[0-9a-f]{20}$")


def _read_key(text: str, original: str) -> str:
    value = text.strip().lower()
    if not _KEY.match(value):
        raise LinkError(f"{original!r}: {text!r} is not a table key fingerprint "
                        f"(20 hex digits)")
    return value


_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
                       r"(\.[A-Za-z0-9]([A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*$")


def _check_host(host: str, original: str) -> str:
    if not host:
        raise LinkError(f"{original!r} has no host address")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if _HOSTNAME.match(host) and not host.replace(".", "").isdigit():
        return host
    raise LinkError(f"{original!r}: {host!r} is not an IP address or host name")


def _check_port(text: str, original: str) -> int:
    if not text.isdigit():
        raise LinkError(f"{original!r}: port {text!r} is not a number")
    port = int(text)
    if not 1 <= port <= 65535:
        raise LinkError(f"{original!r}: port {port} is out of range (1 to 65535)")
    return port


def parse_link(text: str) -> Link:
    """Read a link or an address (see the module docstring); raise LinkError saying why not."""
    if not isinstance(text, str):
        raise LinkError("a link must be text")
    original = text
    s = text.strip()
    if not s:
        raise LinkError("the link is empty")
    m = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://(.*)$", s)
    if m:
        scheme = m.group(1).lower()
        if scheme not in _SCHEMES:
            raise LinkError(
                f"{original!r}: unknown link type {scheme + '://'!r} "
                f"(expected {SCHEME}://HOST:PORT/CODE)"
            )
        s = m.group(2)
    s = s.split("?", 1)[0].split("#", 1)[0]
    hostport, _, path = s.partition("/")
    key = None
    if "@" in hostport:
        who, _, hostport = hostport.rpartition("@")
        key = _read_key(who, original)
    path = path.strip("/")
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            raise LinkError(f"{original!r}: missing ']' after an IPv6 address")
        host = hostport[1:end]
        rest = hostport[end + 1 :]
        if rest and not rest.startswith(":"):
            raise LinkError(f"{original!r}: expected ':PORT' after ']'")
        port_text = rest[1:] if rest else ""
    elif hostport.count(":") > 1:
        raise LinkError(f"{original!r}: put an IPv6 address in brackets, like [fd00::5]:47800")
    else:
        host, _, port_text = hostport.partition(":")
        if ":" in hostport and not port_text:
            raise LinkError(f"{original!r}: the port after ':' is missing")
    host = _check_host(host, original)
    port = _check_port(port_text, original) if port_text else DEFAULT_PORT
    first, slash, rest = path.partition("/")
    if slash or len(first) == 20:  # KEY/CODE, or KEY alone
        key = _read_key(first, original)
        path = rest.strip("/")
    code = normalize_code(path) if path else None
    return Link(host, port, code, key)


def parse_join_target(text: str) -> Link | str:
    """What a person typed in Join: a bare code (returns the code) or a link/address."""
    if not isinstance(text, str):
        raise LinkError("a code or link must be text")
    squeezed = re.sub(r"[\s\-]", "", text)
    if squeezed.isalnum() and len(squeezed) <= CODE_LENGTH + 2:
        return normalize_code(text)
    return parse_link(text)
