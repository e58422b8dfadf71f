// What the board picture shows around the board, as a page: a panel per player (their
// checker colour, name, what they are asked, the cube when they own it, pip count, score)
// and the match's terms under the board. The top panel is the viewer's opponent's.
import { fmt } from "./board.js";
import { pointsWords } from "./record.js";

function node(tag, className = "", parent = null, text = null) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text !== null) n.textContent = text;
  if (parent) parent.appendChild(n);
  return n;
}

export { node };

// A panel for ``player``: its element and the parts ``showPanels`` fills.
function panel(theme, player) {
  const box = node("div", "panel");
  box.id = `panel-${player}`;
  box.dataset.player = String(player);
  const swatch = node("span", "swatch", box);
  swatch.style.background = theme.checkers[player];
  swatch.style.borderColor = theme.checker_rims[player];
  const who = node("span", "who", box);
  const name = node("b", "name", who);
  who.appendChild(document.createTextNode(" "));
  const asks = node("span", "asks", who);
  const cube = node("span", "cube-badge", box);
  cube.id = `cube-badge-${player}`;
  const figure = (key, id) => {
    const f = node("span", "figure", box);
    const label = node("small", "", f);
    const value = node("b", "", f);
    value.id = id;
    return { f, label, value, key };
  };
  const pips = figure("pips", `pips-${player}`);
  const score = figure("score_label", `score-${player}`);
  return { box, name, asks, cube, pips, score };
}

// The two panels: { top, bottom, show(state, game) }.
export function makePanels(theme, words, viewer = 0) {
  const parts = [panel(theme, 0), panel(theme, 1)];
  for (const p of parts) {
    p.pips.label.textContent = words.pips;
    p.score.label.textContent = words.score_label;
  }
  function show(state, game) {
    for (const player of [0, 1]) {
      const p = parts[player];
      p.name.textContent = state.names[player];
      p.asks.textContent = game ? asks(words, game, player) : "";
      const acting = Boolean(game && game.actor === player);
      p.box.classList.toggle("active", acting);
      const owns = Boolean(game && game.cube_owner === player);
      p.cube.hidden = !owns;
      p.cube.textContent = owns ? fmt(words, "cube", { value: game.cube }) : "";
      p.pips.value.textContent = game ? String(game.pips[player]) : "";
      p.score.f.hidden = !(game && game.length);
      p.score.value.textContent = game ? String(game.final_score[player]) : "";
    }
  }
  return { top: parts[1 - viewer].box, bottom: parts[viewer].box, show };
}

// What ``player``'s panel says, as the picture's (renderers/panels.py status).
export function asks(words, game, player) {
  if (game.phase === "over") {
    return game.result && game.result.winner === player ? fmt(words, "wins_points", { points: pointsWords(words, game.result.points) }) : "";
  }
  if (game.resignation) {
    if (game.resignation.player === player) return fmt(words, "resigns_kind", { kind: words[`kind_name_${game.resignation.kind}`] });
    return words.asks_accept_or_reject;
  }
  if (game.phase === "opening") return words.asks_opening;
  if (game.phase === "doubled") {
    return player === game.on_roll ? fmt(words, "doubles_to", { cube: game.cube * 2 }) : words.asks_take_or_drop;
  }
  if (player !== game.actor) return "";
  return words[`asks_${game.asks}`] || "";
}

// The match's terms, as under the picture: "7-point match · Crawford game", "Money game · stake 2".
export function terms(words, game) {
  if (!game) return "";
  if (game.length) {
    const text = fmt(words, "match_terms", { length: game.length });
    return game.crawford ? `${text} · ${words.crawford}` : text;
  }
  return fmt(words, "money_terms", { cube: game.cube });
}

// The header's line: names, score (after the game, once it is over), the match's terms
// (as under the picture) and the game.
export function heading(words, state, game) {
  const names = state.names;
  if (!game) return `${names[0]} – ${names[1]}`;
  const score = game.final_score;
  return `${names[0]} ${score[0]} – ${score[1]} ${names[1]} · ${terms(words, game)} · ${fmt(words, "game", { number: game.game_number })}`;
}
