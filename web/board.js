// A small board for the phone, drawn as SVG from the same geometry as game/rules/track/board.py:
// S sides (S = seats for 4..8, else 4), 18 ring holes per side; a seat on side s has its
// corner at 18s, its home turn at 18s+3 and its come-out hole at 18s+8.

export const COLOURS = ["#e63c28", "#0072dc", "#f0d21e", "#009e73", "#f59614", "#6ec8f5",
  "#c86ebe", "#ebebeb"];
export const COLOUR_NAMES = ["Red", "Blue", "Yellow", "Green", "Orange", "Sky", "Purple", "White"];
const PER_SIDE = 18;

export function sideCount(seats) { return seats < 4 ? 4 : seats; }
export function seatSides(seats) {
  if (seats === 1) return [0];
  if (seats === 2) return [0, 2];
  if (seats === 3) return [0, 1, 2];
  return [...Array(seats).keys()];
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The ring hole's centre on a regular polygon of `sides` sides inside a 200x200 box. */
function holeXY(i, sides) {
  const side = Math.floor(i / PER_SIDE), k = i % PER_SIDE;
  const a0 = (2 * Math.PI * side) / sides - Math.PI / 2 - Math.PI / sides;
  const a1 = a0 + (2 * Math.PI) / sides;
  const r = 88, t = (k + 0.5) / PER_SIDE;
  const x0 = 100 + r * Math.cos(a0), y0 = 100 + r * Math.sin(a0);
  const x1 = 100 + r * Math.cos(a1), y1 = 100 + r * Math.sin(a1);
  return [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t];
}

function towards(xy, f) { return [100 + (xy[0] - 100) * f, 100 + (xy[1] - 100) * f]; }

/** SVG text of the track board for a track view (`view.pegs`: per colour five places). */
export function trackSvg(view, highlight = []) {
  const pegs = view.pegs || [];
  const seats = pegs.length, sides = sideCount(seats), ring = sides * PER_SIDE;
  const sidesOf = seatSides(seats);
  const out = ['<svg viewBox="0 0 200 200" class="board" role="img" aria-label="the board">'];
  for (let i = 0; i < ring; i++) {
    const [x, y] = holeXY(i, sides);
    out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="1.6" fill="#8a7a60"/>`);
  }
  sidesOf.forEach((side, c) => {
    const col = COLOURS[c % COLOURS.length];
    const out0 = holeXY(side * PER_SIDE + 8, sides), turn = holeXY(side * PER_SIDE + 3, sides);
    out.push(`<circle cx="${out0[0].toFixed(1)}" cy="${out0[1].toFixed(1)}" r="3" fill="none" ` +
      `stroke="${col}" stroke-width="1.2"/>`);
    for (let h = 1; h <= 5; h++) {
      const [x, y] = towards(turn, 1 - h * 0.09);
      out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="2" fill="none" ` +
        `stroke="${col}" stroke-width="0.8"/>`);
    }
    const st = (pegs[c] || []).filter((p) => p === "s").length;
    const [sx, sy] = towards(out0, 0.8);
    out.push(`<text x="${sx.toFixed(1)}" y="${(sy + 3).toFixed(1)}" font-size="8" ` +
      `text-anchor="middle" fill="${col}">${st ? esc(st) + "\u25cf" : ""}</text>`);
  });
  pegs.forEach((locs, c) => {
    const col = COLOURS[c % COLOURS.length];
    const side = sidesOf[c];
    locs.forEach((loc) => {
      let xy = null;
      if (typeof loc === "number") xy = holeXY(loc, sides);
      else if (typeof loc === "string" && loc[0] === "h") {
        xy = towards(holeXY(side * PER_SIDE + 3, sides), 1 - Number(loc.slice(1)) * 0.09);
      }
      if (!xy) return;
      const hl = highlight.includes(loc) && c === view.seat;
      out.push(`<circle cx="${xy[0].toFixed(1)}" cy="${xy[1].toFixed(1)}" r="${hl ? 4.2 : 3.4}" ` +
        `fill="${col}" stroke="${hl ? "#fff" : "#222"}" stroke-width="${hl ? 1.4 : 0.8}"/>`);
    });
  });
  out.push("</svg>");
  return out.join("");
}

const SUITS = ["\u2663", "\u2666", "\u2665", "\u2660"];
const RANKS = ["Joker", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const RANK_WORDS = ["Joker", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack",
  "Queen", "King"];

/** A card int (rank = card >> 2, suit = card & 3) as {label, red, rank}. */
export function card(c) {
  const rank = c >> 2, suit = c & 3;
  if (rank === 0 || rank > 13) return { label: "JK", red: false, rank: 0 };
  return { label: RANKS[rank] + SUITS[suit], red: suit === 1 || suit === 2, rank };
}

/** HTML of one seat's Trash layout (places 1..n: a card face up, or face down). */
export function layoutHtml(places, big) {
  return `<div class="layout${big ? " big" : ""}">` + places.map((p, i) => {
    if (p === null || p === undefined) return `<span class="place down">${i + 1}</span>`;
    const k = card(p);
    return `<span class="place up${k.red ? " red" : ""}">${esc(k.label)}</span>`;
  }).join("") + "</div>";
}

export { esc };
