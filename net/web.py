"""The phone's way in: a small web client served by the host, and a WebSocket into the table.

A :class:`WebServer` runs on the host's own event loop, beside the TCP server, on its own port
(the TCP port + 1 unless told). It serves the files of ``web/`` (plain JavaScript, no build
step), ``/qr.svg`` (a QR code of the table's web link, made with ``segno``) and ``/ws``: a
WebSocket whose text messages are the table's own messages as JSON, one to one with the TCP
wire's msgpack maps (``docs/protocol.md``; binary fields as lowercase hex).

No second implementation of the host: each WebSocket becomes an ordinary :class:`net.host.Host`
connection. Its JSON messages are re-framed as the TCP wire's length-prefixed msgpack frames and
fed to a stream reader, and the host's output frames are turned back into JSON on the way out
(:class:`_WsWriter`). So the handshake and its gate, the seat proofs, validation, refusals,
framing limits, rate limits, idle and write deadlines are the host's own code, unchanged, and
a phone's address is its own (the gate counts it like any other machine).

The only web-only additions, both made here and never reaching the table:

* a message carrying a ``view`` for the seat whose turn it is gets ``legal_words``: the legal
  plays of that view, ``[[token, words], ...]``, in the desktop moves list's words when the
  launcher gives a ``describe`` function (``WebConfig.describe``: the words live in the client
  layer, which ``net`` may not import), else the bare tokens;
* a track ``play`` gets ``play_words``: that play in words, said from the view before it;
* ``{"t": "hint"}`` from the phone is answered here, from the last view sent to that phone,
  with ``{"t": "hint", "play": token, "reason": words}`` (``game.ai.hint`` on a worker thread).

See ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from net import protocol as P

if TYPE_CHECKING:
    from aiohttp import web as aioweb

    from net.host import Host

log = logging.getLogger("net.web")

#: The client's binary fields, by message type (sent as hex text in JSON).
BIN_FIELDS = {"hello": ("dh",), "proof": ("proof",)}
#: A frame body no msgpack decoder accepts (0xc1 is never used): what a WebSocket message that
#: is not JSON becomes, so the host refuses it exactly as it refuses a bad msgpack body.
BAD_BODY = b"\xc1"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
         ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}


@dataclass
class WebConfig:
    """How the host serves phones: ``port`` (None: the TCP port + 1; 0: any free port),
    ``bind`` (None: the host's), ``describe(token, view) -> words`` for track plays."""

    port: int | None = None
    bind: str | None = None
    describe: Callable[[str, dict[str, Any]], str] | None = None
    hint_budget_ms: float = 150.0


def web_dir() -> Path:
    """The phone client's files: the source tree's ``web/``, else the installed package data."""
    here = Path(__file__).resolve().parent.parent / "web"
    if (here / "index.html").is_file():
        return here
    return Path(str(resources.files("game.assets_data") / "web"))


def load_files(folder: Path | None = None) -> dict[str, tuple[bytes, str]]:
    """Every file of ``web/`` by its URL path (``/`` is ``index.html``), with its type."""
    folder = folder or web_dir()
    out: dict[str, tuple[bytes, str]] = {}
    for f in sorted(folder.iterdir()):
        kind = TYPES.get(f.suffix)
        if f.is_file() and kind is not None:
            out["/" + f.name] = (f.read_bytes(), kind)
    if "/index.html" not in out:
        raise FileNotFoundError(f"no index.html in {folder}")
    out["/"] = out["/index.html"]
    out.setdefault("/favicon.ico", out.get("/favicon.svg", (b"", "image/x-icon")))
    return out


# --- QR codes -----------------------------------------------------------------------------


def _qr(url: str) -> Any:
    import segno

    return segno.make(url, error="m", micro=False)


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of ``url`` as rows of dark (True) modules, without the quiet zone."""
    return [[bool(m) for m in row] for row in _qr(url).matrix]


def qr_svg(url: str, scale: int = 6) -> bytes:
    buf = io.BytesIO()
    _qr(url).save(buf, kind="svg", scale=scale, border=4, xmldecl=False)
    return buf.getvalue()


def qr_png(url: str, size: int = 256) -> bytes:
    """A PNG of the QR code of ``url``, about ``size`` pixels across (the lobby shows it)."""
    q = _qr(url)
    modules = len(q.matrix) + 8
    buf = io.BytesIO()
    q.save(buf, kind="png", scale=max(1, size // modules), border=4)
    return buf.getvalue()


# --- JSON <-> the wire's frames -------------------------------------------------------------


def json_to_frame(text: str) -> bytes:
    """A phone's JSON message as one TCP-wire frame (the host validates it as any other).

    Not JSON, or not packable: a body the host refuses as bad msgpack (``bad_message``).
    A body over the frame limit keeps its true length, so the host refuses it ``too_large``."""
    try:
        msg = json.loads(text)
        if isinstance(msg, dict):
            for f in BIN_FIELDS.get(str(msg.get("t")), ()):
                v = msg.get(f)
                if isinstance(v, str):
                    with contextlib.suppress(ValueError):
                        msg[f] = bytes.fromhex(v)
        body = msgpack.packb(msg, use_bin_type=True)
    except (ValueError, TypeError, OverflowError, RecursionError):
        body = BAD_BODY
    return P.HEADER.pack(len(body)) + body


def _json_default(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    raise TypeError(f"cannot send {type(v).__name__} to a phone")


def to_json(msg: Any) -> str:
    return json.dumps(msg, default=_json_default, separators=(",", ":"), ensure_ascii=False)


def _is_hint(text: str) -> bool:
    with contextlib.suppress(ValueError, RecursionError):
        return json.loads(text) == {"t": "hint"}
    return False


class _WsTransport:
    """What :class:`net.host.Host` sees of a WebSocket: write/close/abort and the amount unsent.

    ``write`` gets whole frames (the host writes one packed frame at a time); they are decoded,
    touched up (:meth:`WebServer.touch`) and queued as JSON text for the sender task."""

    def __init__(self, server: WebServer, ws: aioweb.WebSocketResponse) -> None:
        self.server = server
        self.ws = ws
        self.queue: deque[str] = deque()
        self.unsent = 0
        self.closing = False
        self.wake = asyncio.Event()
        self.drained = asyncio.Event()
        self.drained.set()
        self.buf = bytearray()
        self.view: dict[str, Any] | None = None  # the last view sent (for hints)

    def write(self, data: bytes) -> None:
        if self.closing:
            return
        self.buf += data
        while len(self.buf) >= P.HEADER.size:
            (n,) = P.HEADER.unpack_from(self.buf)
            if len(self.buf) < P.HEADER.size + n:
                break
            body = bytes(self.buf[P.HEADER.size:P.HEADER.size + n])
            del self.buf[:P.HEADER.size + n]
            msg = msgpack.unpackb(body, raw=False)
            text = to_json(self.server.touch(self, msg))
            self.push(text)

    def push(self, text: str) -> None:
        self.queue.append(text)
        self.unsent += len(text)
        self.drained.clear()
        self.wake.set()

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True
        self.wake.set()

    def abort(self) -> None:
        self.closing = True
        self.queue.clear()
        self.unsent = 0
        self.drained.set()
        self.wake.set()

    async def run(self) -> None:
        """Send what is queued, in order; close the WebSocket once closing and empty."""
        try:
            while True:
                while self.queue:
                    text = self.queue.popleft()
                    self.unsent -= len(text)
                    await self.ws.send_str(text)
                self.drained.set()
                if self.closing:
                    break
                self.wake.clear()
                await self.wake.wait()
        except (ConnectionError, RuntimeError):
            pass
        finally:
            self.closing = True
            self.drained.set()
            with contextlib.suppress(Exception):
                await self.ws.close()


class _WsWriter:
    """The stream writer :meth:`net.host.Host._accept` is given for a WebSocket."""

    def __init__(self, transport: _WsTransport, peer: tuple[str, int]) -> None:
        self.transport = transport
        self.peer = peer

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.peer if name == "peername" else default

    async def drain(self) -> None:
        await self.transport.drained.wait()


class WebServer:
    """The host's web server for phones (see the module docstring)."""

    def __init__(self, host: Host, config: WebConfig | None = None) -> None:
        self.host = host
        self.config = config or WebConfig()
        self.files = load_files()
        self.runner: aioweb.AppRunner | None = None
        self.port = 0
        self.sockets: set[_WsTransport] = set()
        self.stats = {"sockets": 0, "hints": 0}

    @property
    def url(self) -> str:
        """The table's web link: ``http://HOST:WEBPORT/#FINGERPRINT/CODE`` (the QR code's)."""
        return f"http://{self.host.address}:{self.port}/#{self.host.fingerprint}/{self.host.code}"

    @property
    def local_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/#{self.host.fingerprint}/{self.host.code}"

    async def start(self) -> None:
        from aiohttp import web

        app = web.Application(client_max_size=4096)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/qr.svg", self._qr)
        app.router.add_get("/{name:.*}", self._file)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        port = self.config.port
        if port is None:
            port = self.host.port + 1
        bind = self.config.bind if self.config.bind is not None else self.host.bind
        site = web.TCPSite(self.runner, bind or None, port, backlog=256)
        await site.start()
        server = site._server  # the bound socket tells the port when 0 was asked
        assert server is not None
        self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for t in list(self.sockets):
            t.close()
        if self.runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.runner.cleanup(), 3)

    # --- routes ------------------------------------------------------------------------------

    async def _file(self, request: aioweb.Request) -> aioweb.StreamResponse:
        from aiohttp import web

        got = self.files.get(request.path)
        if got is None:
            raise web.HTTPNotFound()
        body, kind = got
        return web.Response(body=body, content_type=kind,
                            headers={"Cache-Control": "no-cache",
                                     "Content-Security-Policy": "default-src 'self'; "
                                     "connect-src 'self' ws: wss:; img-src 'self' data:; "
                                     "style-src 'self' 'unsafe-inline'"})

    async def _qr(self, request: aioweb.Request) -> aioweb.StreamResponse:
        from aiohttp import web

        return web.Response(body=qr_svg(self.url), content_type="image/svg+xml")

    async def _ws(self, request: aioweb.Request) -> aioweb.StreamResponse:
        from aiohttp import WSMsgType, web

        ws = web.WebSocketResponse(max_msg_size=4 * P.MAX_FRAME, compress=False,
                                   autoping=True)
        await ws.prepare(request)
        self.stats["sockets"] += 1
        transport = _WsTransport(self, ws)
        self.sockets.add(transport)
        peer = request.transport.get_extra_info("peername") if request.transport else None
        writer = _WsWriter(transport, tuple(peer[:2]) if peer else ("?", 0))
        reader = asyncio.StreamReader(limit=2 * P.MAX_FRAME)
        sender = asyncio.create_task(transport.run())
        conn = asyncio.create_task(self.host._accept(reader, writer))  # type: ignore[arg-type]
        try:
            async for m in ws:
                if transport.closing:
                    break
                if m.type == WSMsgType.TEXT:
                    if '"hint"' in m.data and _is_hint(m.data):
                        # counted by the host like any message (rate, flood, idle): as a ping
                        reader.feed_data(json_to_frame('{"t":"ping","n":0}'))
                        self._hint(transport)
                        continue
                    reader.feed_data(json_to_frame(m.data))
                    if len(getattr(reader, "_buffer", b"")) > 4 * P.MAX_FRAME:
                        break  # the host is not keeping up with this phone: let it go
                elif m.type == WSMsgType.BINARY:
                    reader.feed_data(P.HEADER.pack(1) + BAD_BODY)
                else:
                    break
        finally:
            reader.feed_eof()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(conn, 5)
            transport.close()
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(sender, 3)
            self.sockets.discard(transport)
        return ws

    # --- the web-only additions --------------------------------------------------------------

    def touch(self, t: _WsTransport, msg: Any) -> Any:
        """A host message on its way to a phone: ``legal_words`` beside a view on its turn."""
        if not isinstance(msg, dict):
            return msg
        box = msg.get("snapshot") if msg.get("t") == "reset" else msg
        if not isinstance(box, dict):
            return msg
        view = box.get("view")
        if not isinstance(view, dict):
            return msg
        before, t.view = t.view, view
        if msg.get("t") == "play" and before is not None and self.config.describe is not None \
                and view.get("game") == "track":
            with contextlib.suppress(Exception):  # the play in words, from the view before it
                msg["play_words"] = self.config.describe(str(msg["play"]), before)
        to_move = box.get("to_move")
        if to_move is None or to_move != view.get("seat"):
            return msg
        try:
            msg["legal_words"] = self.legal_words(view)
        except Exception:  # a view the rules cannot read: the phone plays by token
            log.exception("no legal plays for a phone's view")
        return msg

    def legal_words(self, view: dict[str, Any]) -> list[list[str]]:
        game = view.get("game", "track")
        if game == "layout":
            return [[str(tok), str(tok)] for tok in view.get("legal", [])]
        from game.rules.track import RULES as TRACK

        tokens = TRACK.legal_tokens(TRACK.determinize(view, 0))
        say = self.config.describe
        out = []
        for tok in tokens:
            words = tok
            if say is not None:
                with contextlib.suppress(Exception):
                    words = say(tok, view)
            out.append([tok, words])
        return out

    def _hint(self, t: _WsTransport) -> None:
        view = t.view
        if view is None or getattr(t, "hinting", False):
            return
        t.hinting = True  # type: ignore[attr-defined]
        self.stats["hints"] += 1
        budget = self.config.hint_budget_ms

        def work() -> dict[str, Any]:
            from game import ai

            game = str(view.get("game", "track"))
            legal = [tok for tok, _ in self.legal_words(view)]
            if not legal:
                return {"t": "hint", "play": None, "reason": "no play to hint"}
            tok, reason = ai.hint(game, view, legal, 7, budget)
            return {"t": "hint", "play": tok, "reason": reason}

        async def run() -> None:
            try:
                msg = await asyncio.get_running_loop().run_in_executor(None, work)
            except Exception as e:
                msg = {"t": "hint", "play": None, "reason": f"no hint ({e})"}
            t.hinting = False  # type: ignore[attr-defined]
            if not t.closing:
                t.push(to_json(msg))

        task = asyncio.ensure_future(run())
        task.add_done_callback(lambda _f: None)


__all__ = ["WebConfig", "WebServer", "json_to_frame", "qr_matrix", "qr_png", "qr_svg", "to_json",
           "web_dir"]
