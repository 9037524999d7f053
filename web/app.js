// The phone client: joins the table of the page's link (#FINGERPRINT/CODE) over a WebSocket
// that speaks the table's own messages as JSON (docs/web.md), and shows one seat's hand.
import * as C from "./crypto.js";
import { COLOURS, COLOUR_NAMES, RANK_WORDS, card, esc, layoutHtml, trackSvg } from "./board.js";

const [FP, CODE] = decodeURIComponent(location.hash.slice(1)).split("/");
const STORE = "tt.seat." + (FP || "none");
const S = {
  ws: null, stage: "off", seat: null, table: null, pub: null, view: null, legal: [],
  selected: null, first: null, hint: null, note: "", error: "", ref: 0, retries: 0,
  stop: false, last: "",
};
const $ = (sel) => document.querySelector(sel);
const app = () => $("#app");

function stored() {
  try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch { return null; }
}
function remember(secret) {
  localStorage.setItem(STORE, JSON.stringify({ secret, name: myName() }));
}
function myName() { return (localStorage.getItem("tt.name") || "").trim(); }

function send(m) {
  if (S.ws && S.ws.readyState === 1) { S.ws.send(JSON.stringify(m)); return true; }
  return false;
}

// --- the handshake (docs/protocol.md section 2) ----------------------------------------------

function connect() {
  if (S.ws && S.ws.readyState <= 1) return;
  const name = myName() || (stored() || {}).name;
  if (!name) { S.stage = "off"; render(); return; }
  const kp = C.keyPair(); // before opening: the whole handshake has 2 s
  const ws = new WebSocket(`ws://${location.host}/ws`);
  let key = null;
  S.ws = ws; S.stage = "hello"; S.error = ""; render();
  ws.onopen = () => ws.send(JSON.stringify({ t: "hello", v: 2, name, code: CODE || null,
    dh: C.hex(kp.pub) }));
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.t === "challenge" && S.stage === "hello") {
      const X = C.unhex(m.key);
      if (FP && C.fingerprint(X) !== FP) return fatal(ws, "wrong_host: this is not the table of the link");
      key = C.sessionKey(C.shared(kp.priv, X), X, kp.pub, C.unhex(m.nonce));
      if (!C.equal(C.hostProof(key), C.unhex(m.mac))) return fatal(ws, "wrong_host: the host's proof failed");
      const cred = stored();
      S.usedCred = !!cred;
      ws.send(JSON.stringify({ t: "proof", proof: cred ? C.hex(C.seatProof(cred.secret, key)) : null }));
      S.stage = "proof";
      return;
    }
    if (m.t === "welcome") {
      try { remember(C.unseal(m.token, key)); } catch (err) { return fatal(ws, "wrong_host: " + err.message); }
      S.stage = "in"; S.seat = m.seat; S.table = m.table; S.retries = 0;
    }
    take(m);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.stop) { S.stage = "off"; render(); return; }
    S.stage = "away";
    render();
    const wait = Math.min(5000, 500 * 2 ** Math.min(S.retries++, 4));
    setTimeout(connect, wait);
  };
}

function fatal(ws, why) { S.error = why; S.stop = true; ws.close(); render(); }

setInterval(() => { if (S.stage === "in") send({ t: "ping" }); }, 5000);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !S.ws && !S.stop && myName()) connect();
});

// --- messages from the host ----------------------------------------------------------------

function takeSnapshot(s) {
  S.pub = s; S.view = s.view; S.seat = s.seat;
}

function take(m) {
  switch (m.t) {
    case "snapshot": takeSnapshot(m); S.legal = m.legal_words || []; if (m.record) S.record = m.record; break;
    case "reset": takeSnapshot(m.snapshot); S.legal = m.legal_words || []; break;
    case "table": S.pub = { ...S.pub, ...m, view: S.view }; break;
    case "start": case "play":
      S.view = m.view;
      Object.assign(S.pub, { state_no: m.state_no, to_move: m.to_move });
      if (m.t === "play") {
        S.pub.outcome = m.outcome;
        const who = seatName(m.seat);
        const r = prefixOf(m.play);
        S.last = m.play_words ? `${who}: ${m.play_words}`
          : `${who} played ${S.view && S.view.game === "layout" ? trashDone(m.play) : (RANK_WORDS[r] || m.play)}`;
      } else S.pub.phase = "playing";
      S.legal = m.legal_words || [];
      S.selected = null; S.first = null; S.hint = null;
      break;
    case "record": S.record = m.text; break; // the finished game's record (docs/record.md)
    case "refused": S.note = `Not accepted: ${m.message}`; break;
    case "hint": S.hint = m; if (m.play) S.selected = prefixOf(m.play); break;
    case "error":
      if (m.code === "bad_token" && S.usedCred) {
        localStorage.removeItem(STORE); S.note = "That seat is gone: joining as someone new";
      } else { S.error = `${m.code}: ${m.message}`; if (m.code !== "busy" && m.code !== "idle") S.stop = true; }
      break;
    case "bye":
      if (m.reason !== "host_closing") S.stop = true;
      S.error = { left: "You left the table.", replaced: "Your seat was opened on another screen.",
        handed: "The host handed your seat to a CPU.", removed: "The host removed you." }[m.reason] || "The host closed the table.";
      if (m.reason === "left") localStorage.removeItem(STORE);
      break;
    default: break;
  }
  render();
}

// --- helpers ------------------------------------------------------------------------------

const seats = () => (S.pub && S.pub.seats) || [];
const seatName = (i) => (seats()[i] || {}).name || COLOUR_NAMES[i % 8];
const myTurn = () => S.pub && S.pub.phase === "playing" && S.pub.to_move === S.seat && S.seat !== null;
const paused = () => S.pub && S.pub.pause && S.pub.pause.length > 0;
function mustReady() {
  return !!(S.pub && (S.pub.pause || []).some((r) =>
    (r.reason === "ready" || r.reason === "joining") && (r.seats || []).includes(S.seat)));
}
const TOKEN_RANK = { JK: 0, A: 1, J: 11, Q: 12, K: 13 };
function prefixOf(tok) { const p = tok.split(":")[0]; return p in TOKEN_RANK ? TOKEN_RANK[p] : Number(p); }
function play(tok) {
  send({ t: "play", play: tok, state_no: S.pub.state_no, ref: ++S.ref });
  S.selected = null; S.first = null; S.note = "";
  render();
}
function pauseReason(r) {
  if (r.reason === "paused") return `Paused by ${r.name || "the host"}`;
  if (r.reason === "joining") return `Waiting for ${r.seats.map(seatName).join(", ")} to come back`;
  if (r.reason === "ready") return `Waiting for ${r.seats.map(seatName).join(", ")} to be ready`;
  if (r.reason === "lobby") return "In the lobby";
  return r.reason;
}

// --- screens ------------------------------------------------------------------------------

function button(label, act, cls = "") {
  return `<button class="btn ${cls}" data-act="${esc(act)}">${esc(label)}</button>`;
}

function plates() {
  return `<div class="plates">` + seats().map((s, i) => {
    const glow = S.pub.to_move === i && S.pub.phase === "playing" ? " turn"
      : (s.kind === "person" && (!s.connected || s.standin) ? " away" : "");
    return `<div class="plate${glow}${i === S.seat ? " me" : ""}" style="--c:${COLOURS[i % 8]}">` +
      `<b>${esc(s.name)}</b><small>${s.kind === "cpu" ? esc(s.level || "cpu") :
        (s.standin ? "CPU stands in" : s.connected ? (s.ready ? "ready" : "") : "away")}</small></div>`;
  }).join("") + "</div>";
}

function joinScreen() {
  const name = myName() || ((stored() || {}).name || "");
  return `<h1>Tee Table</h1><p>Join the table ${esc(CODE || "")}</p>` +
    `<label>Your name <input id="name" maxlength="24" value="${esc(name)}" autocomplete="nickname"></label>` +
    button("Join", "join", "big");
}

function lobbyScreen() {
  const rows = seats().map((s, i) => {
    const free = s.kind === "cpu" && i !== S.seat;
    return `<div class="seatrow" style="--c:${COLOURS[i % 8]}"><span class="dot"></span>` +
      `<span>${esc(COLOUR_NAMES[i % 8])}: ${esc(s.name)}${i === S.seat ? " (you)" : ""}</span>` +
      (free ? button("Sit here", "sit:" + i) : "") + "</div>";
  }).join("");
  const me = seats()[S.seat] || {};
  return `<h2>Pick a colour</h2>${rows}` +
    (me.ready ? `<p>Ready: waiting for the host to start.</p>` : button("Ready", "ready", "big go")) +
    button("Leave", "leave", "quiet");
}

function trackHand() {
  const hand = (S.view && S.view.hand) || [];
  const byRank = new Map();
  for (const [tok, words] of S.legal) {
    const r = prefixOf(tok);
    if (!byRank.has(r)) byRank.set(r, []);
    byRank.get(r).push([tok, words]);
  }
  let marked = false;
  const cards = hand.map((c) => {
    const k = card(c), live = byRank.has(k.rank);
    const sel = S.selected === k.rank && !marked ? " sel" : "";
    if (sel) marked = true;
    return `<button class="card${k.red ? " red" : ""}${live ? "" : " dead"}${sel}" ` +
      `data-act="card:${k.rank}">${esc(k.label)}</button>`;
  }).join("");
  let list = "";
  if (myTurn() && S.selected !== null && byRank.has(S.selected)) {
    list = playList(S.selected, byRank.get(S.selected));
  } else if (myTurn()) list = `<p class="hintline">Your turn: choose a card.</p>`;
  return `<div class="hand">${cards}</div>${list}`;
}

function parts(tok, words) {
  const body = words.includes(": ") ? words.slice(words.indexOf(": ") + 2) : words;
  return words === tok ? tok.split(":").slice(1).join(":").split(",") : body.split(", then ");
}

function playList(rank, plays) {
  const title = RANK_WORDS[rank] || String(rank);
  const split = (rank === 7 || rank === 9) && plays.some(([t, w]) => parts(t, w).length > 1);
  if (!split) {
    return `<div class="plays"><h3>${esc(title)}</h3>` +
      plays.map(([t, w]) => button(w, "play:" + t, "move")).join("") + "</div>";
  }
  if (S.first === null) {
    const firsts = [...new Set(plays.map(([t, w]) => parts(t, w)[0]))];
    return `<div class="plays"><h3>${esc(title)}: first part</h3>` +
      firsts.map((f) => button(f, "first:" + f, "move")).join("") + "</div>";
  }
  const rest = plays.filter(([t, w]) => parts(t, w)[0] === S.first);
  return `<div class="plays"><h3>${esc(S.first)}, then</h3>` +
    rest.map(([t, w]) => button(parts(t, w).slice(1).join(", then ") || "nothing more (all on one peg)",
      "play:" + t, "move")).join("") + button("Back", "first:", "quiet") + "</div>";
}

function trashWords(tok) {
  const v = S.view;
  if (tok === "S") return "Draw from the stock";
  if (tok === "D") {
    const top = (v.discard || [])[(v.discard || []).length - 1];
    return top === undefined ? "Take the discard" : `Take the ${card(top).label} from the discards`;
  }
  if (tok[0] === "W") return `Wild card to place ${tok.slice(1)}`;
  return tok;
}

function trashDone(tok) {
  return tok === "S" ? "from the stock" : tok === "D" ? "from the discards" : "a wild card";
}

function trashScreen() {
  const v = S.view;
  const mine = (v.layouts || [])[S.seat] || [];
  const others = (v.layouts || []).map((l, i) => i === S.seat ? "" :
    `<div class="other" style="--c:${COLOURS[i % 8]}"><small>${esc(seatName(i))}</small>${layoutHtml(l, false)}</div>`).join("");
  const top = (v.discard || [])[(v.discard || []).length - 1];
  const hold = v.holding !== null && v.holding !== undefined ? card(v.holding) : null;
  const choices = myTurn() ? S.legal.map(([t]) => button(trashWords(t), "play:" + t, "move")).join("") : "";
  return `<div class="others">${others}</div>` +
    `<div class="piles"><span>Stock ${esc(v.stock)}</span><span>Discard ${top === undefined ? "none" : esc(card(top).label)}</span>` +
    (hold ? `<span class="holding${hold.red ? " red" : ""}">Holding ${esc(hold.label)}</span>` : "") + "</div>" +
    `<h3>Your layout</h3>${layoutHtml(mine, true)}<div class="plays">${choices}</div>`;
}

function gameScreen() {
  const v = S.view || {};
  let body = "";
  if (v.game === "layout") body = trashScreen();
  else {
    const hl = S.selected !== null ? [] : [];
    body = `<div class="boardbox">${trackSvg(v, hl)}</div>${trackHand()}`;
  }
  const hint = S.hint ? `<p class="hintline">Hint: ${esc(hintWords(S.hint))} (${esc(S.hint.reason)})</p>` : "";
  const tools = `<div class="tools">` +
    (myTurn() ? button("Hint", "hint") : "") + button("Pause", "pause") + "</div>";
  return body + hint + tools;
}

function hintWords(h) {
  if (!h.play) return "none";
  const f = S.legal.find(([t]) => t === h.play);
  return S.view.game === "layout" ? trashWords(h.play) : (f ? f[1] : h.play);
}

function overScreen() {
  const o = S.pub.outcome || {};
  const win = (o.winners || o.winning_seats || []).map(seatName).join(", ");
  const pts = Object.entries(S.pub.points || {}).map(([s, p]) => `${esc(seatName(Number(s)))}: ${esc(p)}`);
  // the table's own record, to keep: the same file the desktop's "Save record..." writes
  const rec = S.record ? `<p><a class="btn big" id="record" download="tee-table-game.ttr" ` +
    `href="data:text/plain;charset=utf-8,${encodeURIComponent(S.record)}">Save the game's record</a></p>` : "";
  return `<h2>Game over</h2><p>${win ? esc(win) + " won." : ""}</p>` +
    (pts.length ? `<p>Points: ${pts.join(", ")}</p>` : "") + rec;
}

function render() {
  const root = app();
  if (!root) return;
  const focus = document.activeElement && document.activeElement.id;
  let html = "";
  if (!S.pub) {
    html = S.stage === "off" || S.stop ? joinScreen() : `<h1>Tee Table</h1><p>Joining…</p>`;
  } else {
    const status = S.stage === "in" ? "" : `<p class="status">Connection lost: coming back…</p>`;
    const banner = paused() && S.pub.phase !== "lobby"
      ? `<div class="banner">${S.pub.pause.map(pauseReason).map(esc).join("<br>")}` +
        (mustReady() ? button("Ready", "ready", "big go") : "") + "</div>" : "";
    const turn = S.pub.phase === "playing" ? `<p class="turnline">${myTurn() ? "Your turn" :
      esc(seatName(S.pub.to_move)) + " to play"}${S.last ? " · " + esc(S.last) : ""}</p>` : "";
    html = status + plates() + turn + banner +
      (S.pub.phase === "lobby" ? lobbyScreen() : S.pub.phase === "over" ? overScreen() : gameScreen());
  }
  if (S.note) html += `<p class="note">${esc(S.note)}</p>`;
  if (S.error) html += `<p class="error">${esc(S.error)}</p>`;
  root.innerHTML = html;
  root.dataset.screen = !S.pub ? "join" : S.pub.phase;
  if (focus) { const el = document.getElementById(focus); if (el) el.focus(); }
  const list = document.querySelector(".plays");
  if (list && S.scroll) list.scrollIntoView({ block: "nearest" });
  S.scroll = false;
}

// --- taps ---------------------------------------------------------------------------------

document.addEventListener("click", (e) => {
  const b = e.target.closest("[data-act]");
  if (!b) return;
  const act = b.dataset.act, arg = act.slice(act.indexOf(":") + 1);
  if (act === "join") {
    const n = ($("#name").value || "").trim().slice(0, 24);
    if (!n) { S.note = "Type a name first"; render(); return; }
    localStorage.setItem("tt.name", n); S.stop = false; S.error = ""; connect();
  } else if (act.startsWith("sit:")) send({ t: "sit", seat: Number(arg) });
  else if (act === "ready") send({ t: "ready" });
  else if (act === "leave") { S.stop = true; send({ t: "leave" }); }
  else if (act === "pause") send({ t: "pause" });
  else if (act === "hint") send({ t: "hint" });
  else if (act.startsWith("card:")) { S.selected = Number(arg); S.first = null; S.scroll = true; render(); }
  else if (act.startsWith("first:")) { S.first = arg || null; S.scroll = true; render(); }
  else if (act.startsWith("play:")) play(arg);
});

window.teeTable = S; // for tests and curious people
S.render = render;
render();
if (myName() && stored()) connect();
