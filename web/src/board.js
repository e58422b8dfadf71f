// The board drawn in SVG with the board images' colours (renderers/theme.py, sent by the
// server), from player 0's numbering: point 1 is player 0's ace point. A viewer who plays
// player 1 sees the board turned, their checkers at the bottom.

const NS = "http://www.w3.org/2000/svg";
// Left to right: the rail that holds the cube (as the picture's rail away from the trays:
// wider than the others, so that the cube never covers a point), the outer board, the bar,
// the home board, a rim, the trays, a rim.
const H = 520, RIM = 20, PW = 48, BAR_W = 40, TRAY_W = 60, CUBE = 36;
const LEFT = CUBE + 12, BAR_X = LEFT + 6 * PW, TRAY_X = BAR_X + BAR_W + 6 * PW + RIM;
const W = TRAY_X + TRAY_W + RIM;
const R = 22, FIELD_TOP = RIM, FIELD_BOTTOM = H - RIM, POINT_H = 200;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function fmt(words, key, params = {}) {
  let text = words[key] || key;
  for (const [k, v] of Object.entries(params)) text = text.split(`{${k}}`).join(String(v));
  return text;
}

// Where a point (in the viewer's numbering, 1..24) stands: its column's left edge and
// whether it hangs from the top.
function column(dp) {
  if (dp <= 6) return { x: BAR_X + BAR_W + (6 - dp) * PW, top: false };
  if (dp <= 12) return { x: LEFT + (12 - dp) * PW, top: false };
  if (dp <= 18) return { x: LEFT + (dp - 13) * PW, top: true };
  return { x: BAR_X + BAR_W + (dp - 19) * PW, top: true };
}

// The viewer's number of an absolute point.
const shown = (point, viewer) => (viewer === 1 ? 25 - point : point);

function checker(svg, theme, player, cx, cy, label, extra = {}) {
  const g = el("g", extra, svg);
  el("circle", { cx, cy, r: R - 1, fill: theme.checkers[player], stroke: theme.checker_rims[player], "stroke-width": 2 }, g);
  if (label) {
    const t = el("text", { x: cx, y: cy + 6, "text-anchor": "middle", "font-size": 18, "font-weight": "bold", fill: theme.checker_text[player] }, g);
    t.textContent = label;
  }
  return g;
}

function stack(svg, theme, player, count, x, top, attrs) {
  const shownCount = Math.min(count, 5);
  for (let i = 0; i < shownCount; i++) {
    const cy = top ? FIELD_TOP + R + i * 2 * R : FIELD_BOTTOM - R - i * 2 * R;
    const label = i === shownCount - 1 && count > 5 ? String(count) : "";
    checker(svg, theme, player, x + PW / 2, cy, label, attrs);
  }
}

function die(svg, theme, player, value, x, y, used) {
  const g = el("g", { class: "die", "data-value": value, "data-player": player, opacity: used ? 0.35 : 1 }, svg);
  el("rect", { x, y, width: 40, height: 40, rx: 7, fill: theme.checkers[player], stroke: theme.checker_rims[player], "stroke-width": 2 }, g);
  const spots = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]], 5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] }[value] || [];
  for (const [i, j] of spots) el("circle", { cx: x + i * 10, cy: y + j * 10, r: 4, fill: theme.die_pips[player] }, g);
}

// Draw ``game`` (the server's game JSON) into ``svg``. ``opts``: viewer (0 or 1), names,
// highlight (absolute points to mark), targets (absolute points a checker may go to, 0 off),
// remaining (dice still to play), onPoint(point) for taps.
export function drawBoard(svg, theme, game, opts = {}) {
  const viewer = opts.viewer || 0;
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: theme.frame, rx: 10 }, svg);
  el("rect", { x: LEFT, y: FIELD_TOP, width: BAR_X - LEFT, height: FIELD_BOTTOM - FIELD_TOP, fill: theme.field, stroke: theme.frame_edge }, svg);
  el("rect", { x: BAR_X + BAR_W, y: FIELD_TOP, width: 6 * PW, height: FIELD_BOTTOM - FIELD_TOP, fill: theme.field, stroke: theme.frame_edge }, svg);
  el("rect", { x: TRAY_X, y: FIELD_TOP, width: TRAY_W, height: FIELD_BOTTOM - FIELD_TOP, fill: theme.tray, stroke: theme.frame_edge }, svg);
  const highlight = new Set(opts.highlight || []);
  const targets = new Set(opts.targets || []);
  const tap = opts.onPoint;
  for (let point = 1; point <= 24; point++) {
    const dp = shown(point, viewer);
    const { x, top } = column(dp);
    const base = top ? FIELD_TOP : FIELD_BOTTOM;
    const tip = top ? FIELD_TOP + POINT_H : FIELD_BOTTOM - POINT_H;
    const fill = theme.points[(dp + 1) % 2];  // odd points first
    el("polygon", { points: `${x},${base} ${x + PW},${base} ${x + PW / 2},${tip}`, fill }, svg);
    const num = el("text", { x: x + PW / 2, y: top ? 14 : H - 5, "text-anchor": "middle", "font-size": 12, fill: theme.numbers }, svg);
    num.textContent = String(dp);
    const count = game.points[point - 1];
    if (count) stack(svg, theme, count > 0 ? 0 : 1, Math.abs(count), x, top, { "data-point": point });
    if (highlight.has(point) || targets.has(point)) {
      el("rect", { x: x + 2, y: top ? FIELD_TOP : FIELD_BOTTOM - POINT_H, width: PW - 4, height: POINT_H, fill: "none", stroke: targets.has(point) ? theme.accent : theme.hit, "stroke-width": 4, rx: 6, class: targets.has(point) ? "target" : "source", "data-point": point }, svg);
    }
    if (tap) {
      const hit = el("rect", { x, y: top ? FIELD_TOP : FIELD_BOTTOM - POINT_H - 20, width: PW, height: POINT_H + 20, fill: "transparent", class: "tap", "data-point": point }, svg);
      hit.addEventListener("click", () => tap(point));
    }
  }
  // The bar: the bottom player's checkers just below the middle, the top player's above.
  for (const player of [0, 1]) {
    const count = game.bar[player];
    const bottom = player === viewer;
    for (let i = 0; i < Math.min(count, 3); i++) {
      const cy = bottom ? H / 2 + R + 4 + i * 2 * R : H / 2 - R - 4 - i * 2 * R;
      checker(svg, theme, player, BAR_X + BAR_W / 2, cy, i === Math.min(count, 3) - 1 && count > 1 ? String(count) : "", { "data-point": "bar" });
    }
  }
  // The trays: borne-off checkers as slabs, the bottom player's at the bottom.
  for (const player of [0, 1]) {
    const bottom = player === viewer;
    for (let i = 0; i < game.off[player]; i++) {
      const y = bottom ? FIELD_BOTTOM - 14 - i * 14 : FIELD_TOP + 2 + i * 14;
      el("rect", { x: TRAY_X + 6, y, width: TRAY_W - 12, height: 12, rx: 3, fill: theme.checkers[player], stroke: theme.checker_rims[player] }, svg);
    }
  }
  if (tap) {
    const barHit = el("rect", { x: BAR_X, y: FIELD_TOP, width: BAR_W, height: FIELD_BOTTOM - FIELD_TOP, fill: "transparent", class: "tap", "data-point": 25 }, svg);
    barHit.addEventListener("click", () => tap(25));
    const offHit = el("rect", { x: TRAY_X, y: FIELD_TOP, width: TRAY_W, height: FIELD_BOTTOM - FIELD_TOP, fill: "transparent", class: "tap", "data-point": 0 }, svg);
    offHit.addEventListener("click", () => tap(0));
  }
  if (highlight.has(25)) el("rect", { x: BAR_X + 2, y: FIELD_TOP, width: BAR_W - 4, height: FIELD_BOTTOM - FIELD_TOP, fill: "none", stroke: theme.hit, "stroke-width": 4, rx: 6, class: "source", "data-point": 25 }, svg);
  if (targets.has(0)) el("rect", { x: TRAY_X + 2, y: FIELD_TOP, width: TRAY_W - 4, height: FIELD_BOTTOM - FIELD_TOP, fill: "none", stroke: theme.accent, "stroke-width": 4, rx: 6, class: "target", "data-point": 0 }, svg);
  // Dice in the half of the player on roll (or ``opts.dice``: the dice a shown play was
  // made with, in its player's half). The opening roll is one die each: the first (the
  // higher, which starts) is the starter's, the second the other player's, in their colours.
  const opening = game.phase === "move" && !game.last; // no play yet in this game
  const dice = opts.dice || (game.dice ? { player: game.on_roll, values: game.dice, opening } : null);
  if (dice) {
    const player = dice.player;
    const x0 = player === viewer ? BAR_X + BAR_W + 6 * PW / 2 - 44 : LEFT + 6 * PW / 2 - 44;
    const remaining = opts.remaining ? [...opts.remaining] : null;
    dice.values.forEach((value, i) => {
      let used = false;
      if (remaining) {
        const at = remaining.indexOf(value);
        if (at < 0) used = true; else remaining.splice(at, 1);
      }
      const owner = dice.opening && i === 1 ? 1 - player : player;
      die(svg, theme, owner, value, x0 + i * 48, H / 2 - 20, used);
    });
  }
  if (!tap) arrows(svg, theme, game, viewer);
  cube(svg, theme, game, viewer);
}

// The cube in the left rail, as the board picture draws it (renderers/board.py): none in a
// game without one (the cube off, a 1-point match), the word CRAWFORD in its place in the
// Crawford game; while a double waits for its answer, the value offered, glowing at the
// end of the player doubled; else 64 in the middle, or the stake at its owner's end.
function cube(svg, theme, game, viewer) {
  if (!game.cube_in_play) {
    if (game.crawford) {
      const x = LEFT / 2, y = H / 2;
      const label = el("text", { id: "crawford", x, y, transform: `rotate(-90 ${x} ${y})`, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 15, "font-weight": "bold", fill: theme.numbers }, svg);
      label.textContent = "CRAWFORD";
    }
    return;
  }
  const offer = game.cube_offered;
  const at = offer ? offer.player : game.cube_owner;
  const value = offer ? offer.value : (game.cube === 1 && game.cube_owner === null ? 64 : game.cube);
  const GLOW = 5;
  const x = (LEFT - CUBE) / 2;
  const y = at === null ? H / 2 - CUBE / 2 : (at === viewer ? FIELD_BOTTOM - CUBE - GLOW : FIELD_TOP + GLOW);
  const owner = game.cube_owner === null ? "" : String(game.cube_owner);
  const box = el("g", { id: "cube", class: offer ? "offered" : "", "data-value": value, "data-owner": owner }, svg);
  if (offer) {
    el("rect", { x: x - GLOW, y: y - GLOW, width: CUBE + 2 * GLOW, height: CUBE + 2 * GLOW, rx: 10, fill: theme.accent_dark, class: "glow" }, box);
    el("rect", { x: x - 3, y: y - 3, width: CUBE + 6, height: CUBE + 6, rx: 8, fill: theme.accent, class: "glow" }, box);
  }
  el("rect", { x, y, width: CUBE, height: CUBE, rx: 5, fill: theme.cube, stroke: theme.accent_dark, class: "face" }, box);
  const label = el("text", { x: x + CUBE / 2, y: y + 24, "text-anchor": "middle", "font-size": String(value).length > 2 ? 14 : 18, "font-weight": "bold", fill: theme.cube_text }, box);
  label.textContent = String(value);
}

// Where an arrow of the last play starts (the slot the checker left) or ends (the checker
// it became) on ``point`` (absolute; 25 the mover's bar, 0 off).
function spot(game, point, mover, viewer, start) {
  if (point === 25) return [BAR_X + BAR_W / 2, mover === viewer ? H / 2 + R : H / 2 - R];
  if (point === 0) return [TRAY_X + TRAY_W / 2, mover === viewer ? FIELD_BOTTOM - 30 : FIELD_TOP + 30];
  const { x, top } = column(shown(point, viewer));
  const n = Math.abs(game.points[point - 1]);
  const depth = R + Math.min(start ? n : Math.max(n - 1, 0), 4) * 2 * R;
  return [x + PW / 2, top ? FIELD_TOP + depth : FIELD_BOTTOM - depth];
}

// The last play as arrows, as the board images draw it.
function arrows(svg, theme, game, viewer) {
  const last = game.last;
  if (!last || !last.moves.length) return;
  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "head", markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: "auto" }, defs);
  el("path", { d: "M0,0 L4,2 L0,4 z", fill: theme.accent }, marker);
  for (const [from, to] of last.moves) {
    const [x1, y1] = spot(game, from, last.player, viewer, true);
    const [x2, y2] = spot(game, to, last.player, viewer, false);
    el("line", { x1, y1, x2, y2, stroke: theme.accent_dark, "stroke-width": 7, "stroke-linecap": "round", opacity: 0.6, class: "arrow" }, svg);
    el("line", { x1, y1, x2, y2, stroke: theme.accent, "stroke-width": 4, "stroke-linecap": "round", "marker-end": "url(#head)", class: "arrow" }, svg);
  }
  // A checker hit is marked where it was, as the board images mark it: a red disc with a cross.
  for (const point of new Set(last.hits || [])) {
    const [x, y] = spot(game, point, last.player, viewer, false);
    const g = el("g", { class: "hit", "data-point": point }, svg);
    el("circle", { cx: x + R - 4, cy: y - R + 4, r: 10, fill: theme.hit, stroke: "#ffffff", "stroke-width": 2 }, g);
    el("path", { d: `M${x + R - 8},${y - R} l8,8 m0,-8 l-8,8`, stroke: "#ffffff", "stroke-width": 2.5, "stroke-linecap": "round" }, g);
  }
}

// The line above the board: names, score (after the game, once it is over), match length.
export function headline(words, state, game = state.game) {
  const g = game;
  const names = state.names;
  if (!g) return `${names[0]} – ${names[1]}`;
  const length = g.length ? fmt(words, "match_to", { length: g.length }) : words.money;
  const score = g.final_score || g.score;
  return `${names[0]} ${score[0]} – ${score[1]} ${names[1]} · ${length} · ${fmt(words, "game", { number: g.game_number })}`;
}

// What the game waits for, in words.
export function statusLine(words, state, me = null) {
  if (!state) return words.no_game;
  if (state.status === "challenge") return words.challenge;
  const g = state.game;
  if (!state.live || !g) {
    if (state.winner !== null && state.winner !== undefined) return fmt(words, "winner", { name: state.names[state.winner] });
    return words.over;
  }
  if (g.result) return fmt(words, "winner", { name: state.names[g.result.winner] });
  if (g.actor === null) return words.over;
  if (me !== null && g.actor === me) return words.your_turn;
  return fmt(words, "their_turn", { name: state.names[g.actor] });
}

export function readData() {
  return JSON.parse(document.getElementById("data").textContent);
}

export function socketUrl(path) {
  const base = document.baseURI.replace(/^http/, "ws");
  return new URL(path, base).toString();
}
