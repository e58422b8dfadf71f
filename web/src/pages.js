// The spectator pages: the live board of a match and the replay of a match. Both show what
// the board picture shows (the players' panels around the board, the match's terms, the last
// play drawn and in words) and the game's record beside it, which a tap opens at any position.
import { drawBoard, el, fmt, readData, socketUrl } from "./board.js";
import { heading, makePanels, node } from "./panels.js";
import { buildRecord, duration, gameResultWords, matchResultWords, stepWords } from "./record.js";

const data = readData();
const words = data.words;
const theme = data.theme;
const app = document.getElementById("app");

// The page's parts: the header (the server, the headline), the table (the panels around
// the board, the terms, lines of text) and the side (the move list).
function frame(title) {
  app.innerHTML = "";
  app.className = "board-page";
  const header = node("header", "top", app);
  node("p", "site", header, data.server ? `${data.server} · ${title}` : title).id = "site";
  const head = node("h1", "", header);
  head.id = "headline";
  const layout = node("div", "layout", app);
  const table = node("section", "table", layout);
  const panels = makePanels(theme, words);
  table.appendChild(panels.top);
  const svg = el("svg", { id: "board", role: "img" }, table);
  table.appendChild(panels.bottom);
  const line = (id, className = id) => {
    const p = node("p", className, table);
    p.id = id;
    return p;
  };
  const side = node("aside", "side", layout);
  const extra = node("section", "extra", layout);
  return { header, head, table, panels, svg, line, side, extra };
}

// The dice a step's play was made with, drawn in its player's half (the board after a play
// has no dice of its own); a game's first play was made with the opening roll, one die each.
function stepOpts(step) {
  const f = step.frame;
  if (step.kind === "entry" && f.dice && (f.action === "move" || f.action === "pass")) {
    return { dice: { player: f.player, values: f.dice, opening: step.opening } };
  }
  return {};
}

// The record as a list: a heading per game (its opening), a line per entry, the result
// after the game's last entry. ``onPick(index)`` opens step ``index``.
function moveList(side, onPick) {
  node("h2", "moves-title", side, words.moves);
  const list = node("ol", "moves", side);
  list.id = "moves";
  let items = [];
  function render(record, state, { withMatchResult = false } = {}) {
    list.innerHTML = "";
    items = [];
    if (!record.steps.length) node("li", "empty", list, words.no_moves);
    record.steps.forEach((step, index) => {
      const item = node("li", step.kind === "start" ? "game" : "entry", list);
      const text = stepWords(words, state.names, step);
      if (step.kind === "start") {
        item.textContent = text.startsWith(fmt(words, "game", { number: step.game })) ? text : `${fmt(words, "game", { number: step.game })} · ${text}`;
      } else {
        node("span", "n", item, `${step.n}.`);
        const swatch = node("span", "dot", item);
        if (step.frame.player !== null && step.frame.player !== undefined) swatch.style.background = theme.checkers[step.frame.player];
        node("span", "words", item, text);
      }
      item.dataset.step = String(index);
      item.tabIndex = 0;
      item.addEventListener("click", () => onPick(index));
      item.addEventListener("keydown", (e) => { if (e.key === "Enter") onPick(index); });
      items.push(item);
      const game = record.games.find((g) => g.end === index);
      if (game) {
        const over = node("li", "result", list, `${gameResultWords(words, state.names, game.result)} · ${game.final[0]}–${game.final[1]}`);
        over.dataset.game = String(game.number);
      }
    });
    const money = state.game && !state.game.length; // one game: its result says it all
    const won = withMatchResult && !money ? matchResultWords(words, state) : null;
    if (won) node("li", "result match", list, won).id = "match-result";
  }
  function mark(index, blunders = null) {
    items.forEach((item, i) => {
      const here = i === index;
      item.classList.toggle("current", here);
      if (here) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
      if (blunders) item.classList.toggle("blunder", blunders.has(i));
    });
    const item = items[index];
    if (item && list.scrollHeight > list.clientHeight) {
      const top = item.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }
  return { render, mark };
}

function live() {
  const f = frame(words.live);
  const status = f.line("status");
  const last = f.line("last-play", "last");
  const viewing = f.line("viewing");
  viewing.hidden = true;
  node("span", "", viewing, `${words.viewing} `);
  const back = node("button", "button", viewing, words.back_live);
  back.id = "back-live";
  back.addEventListener("click", () => { looking = null; draw(); });
  const list = moveList(f.side, (index) => { looking = index; draw(); });
  const more = node("p", "more", f.side);
  const replayLink = node("a", "", more, words.replay);
  replayLink.href = data.paths.replay;
  replayLink.id = "replay-link";

  let state = data.state;
  let record = null; // the steps of the game being played
  let looking = null; // a step's index, when looking at an earlier position

  // Whose turn and for how long, or how the match ended: about the live game, always.
  function tick() {
    const g = state && state.game;
    let line;
    if (!state) line = words.no_game;
    else if (state.status === "challenge") line = words.challenge;
    else if (!state.live || !g) line = matchResultWords(words, state) || words.over;
    else if (g.result) line = gameResultWords(words, state.names, g.result);
    else if (g.actor === null) line = words.over;
    else {
      const time = duration(words, Date.now() / 1000 - state.last_action_at);
      line = fmt(words, "waiting", { name: state.names[g.actor], time });
    }
    status.textContent = line;
  }

  function draw() {
    const step = looking !== null && record ? record.steps[looking] : null;
    const game = step ? step.frame.game : state.game;
    f.head.textContent = heading(words, state, game);
    f.panels.show(state, game);
    if (game) drawBoard(f.svg, theme, game, step ? stepOpts(step) : {});
    else f.svg.innerHTML = "";
    last.textContent = game && game.last ? fmt(words, "played", { name: state.names[game.last.player], play: game.last.text }) : "";
    viewing.hidden = step === null;
    if (record) list.mark(step ? looking : record.steps.length - 1);
    tick();
    document.body.dataset.version = String(state.version);
    document.body.dataset.looking = step ? String(looking) : "";
  }

  // The move list, asked again when the board changed: one request at a time, at most one
  // a second, none while the page is hidden (the server works it out once per version for
  // every watcher; the board itself comes over the socket and never waits for it).
  let asking = false;
  let wanted = -1;
  let lastAsked = 0;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function loadMoves() {
    wanted = state.version;
    if (asking || document.hidden) return;
    asking = true;
    try {
      for (;;) {
        await pause(Math.max(0, lastAsked + 1000 - Date.now()));
        const asked = wanted;
        lastAsked = Date.now();
        const response = await fetch(data.paths.moves);
        if (response.ok) {
          const body = await response.json();
          const before = record && record.steps[0] ? record.steps[0].game : null;
          record = buildRecord(body.frames);
          const now = record.steps[0] ? record.steps[0].game : null;
          if (looking !== null && (now !== before || looking >= record.steps.length)) looking = null;
          list.render(record, state);
          document.body.dataset.moves = String(record.total);
          document.body.dataset.movesVersion = String(body.version);
          draw();
        }
        if (wanted === asked || document.hidden) break;
      }
    } catch (e) {
      // the next change asks again
    } finally {
      asking = false;
    }
  }

  function changed() {
    draw();
    // When each state was drawn, on the wall clock (benchmarks/web_live.py reads it).
    (window.gammonSeen = window.gammonSeen || []).push([state.version, Date.now()]);
    if (state.game) loadMoves();
  }
  changed();
  setInterval(tick, 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden && state.game) loadMoves(); });
  let delay = 500;
  function connect() {
    const socket = new WebSocket(socketUrl(data.paths.socket));
    socket.onopen = () => { delay = 500; document.body.dataset.connected = "1"; };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state" && message.state) { state = message.state; changed(); }
    };
    socket.onclose = () => {
      document.body.dataset.connected = "0";
      status.textContent = words.reconnecting;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }
  connect();
}

async function replay() {
  const f = frame(words.replay);
  const winner = node("p", "winner", f.header);
  winner.id = "winner";
  // Beside the board on a wide screen, under it on a phone: where we are, the controls and
  // the analysis, above the move list.
  const info = node("div", "info", f.side);
  const line = (id) => { const p = node("p", id, info); p.id = id; return p; };
  const position = line("position");
  const stepLine = line("step");
  const result = line("result");
  const bar = node("nav", "controls", info);
  const note = line("analysis");
  const chart = node("img", "", f.extra);
  chart.id = "chart";
  chart.alt = words.win_chance;
  chart.hidden = true;
  const paths = data.paths;
  const body = await (await fetch(paths.frames)).json();
  const state = body.state;
  const record = buildRecord(body.frames);
  const steps = record.steps;
  const list = moveList(f.side, (i) => go(i));
  list.render(record, state, { withMatchResult: true });
  winner.textContent = matchResultWords(words, state) || "";
  let analysis = null;
  let blunders = new Set(); // step indexes of the plays the analysis calls blunders
  let index = opening();

  // Where the address points: ?at=N (the N-th move), ?game=G (game G's start), else the start.
  function opening() {
    const query = new URLSearchParams(location.search);
    const at = Number.parseInt(query.get("at") || "", 10);
    const game = Number.parseInt(query.get("game") || "", 10);
    if (at > 0) {
      const found = steps.findIndex((s) => s.kind === "entry" && s.n === at);
      if (found >= 0) return found;
    }
    const start = record.games.find((g) => g.number === game);
    return start ? start.start : 0;
  }

  // The address of a step, for a link: this page's, with ?at= or ?game= (the language kept).
  function linkTo(step) {
    const url = new URL(location.href);
    url.hash = "";
    url.searchParams.delete("at");
    url.searchParams.delete("game");
    if (step.kind === "entry") url.searchParams.set("at", String(step.n));
    else if (step.game !== steps[0].game) url.searchParams.set("game", String(step.game));
    return url.toString();
  }

  function playOf(step) {
    const g = analysis && analysis.games && analysis.games[String(step.game)];
    return g && step.frame.play ? g.plays[String(step.frame.play)] : null;
  }

  function show() {
    const step = steps[index];
    if (!step) { position.textContent = words.not_found; return; }
    const fr = step.frame;
    const game = fr.game;
    f.head.textContent = heading(words, state, game);
    f.panels.show(state, game);
    drawBoard(f.svg, theme, game, stepOpts(step));
    const number = fmt(words, "game", { number: step.game });
    position.textContent = step.kind === "start" ? fmt(words, "game_start", { number: step.game }) : `${fmt(words, "move_of", { n: step.n, total: record.total })} · ${number}`;
    stepLine.textContent = stepWords(words, state.names, step);
    const ended = record.games.find((g) => g.end === index);
    const lastGame = record.games[record.games.length - 1];
    let said = ended ? `${gameResultWords(words, state.names, ended.result)} · ${ended.final[0]}–${ended.final[1]}` : "";
    const won = matchResultWords(words, state);
    if (ended && ended === lastGame && won && game.length) said = `${said}. ${won}`;
    result.textContent = said;
    const play = playOf(step);
    if (play) {
      const chance = Math.round(play.win * 100);
      const lost = fmt(words, "error_lost", { value: play.lost.toFixed(3) });
      const chances = fmt(words, "chances", { a: state.names[0], pa: chance, b: state.names[1], pb: 100 - chance });
      note.textContent = `${lost}${play.blunder ? ` · ${words.blunder}` : ""} · ${chances}`;
    } else if (analysis) note.textContent = "";
    note.dataset.lost = play ? String(play.lost) : "";
    note.dataset.blunder = play && play.blunder ? "1" : "";
    const hasGame = analysis && analysis.games && analysis.games[String(step.game)];
    if (hasGame) {
      const src = `${paths.chart}${step.game}.png?lang=${data.lang}`;
      if (chart.getAttribute("src") !== src) chart.setAttribute("src", src);
      chart.alt = fmt(words, "chart_of", { name: state.names[0], number: step.game });
      chart.hidden = false;
    } else chart.hidden = true;
    list.mark(index, blunders);
    const link = linkTo(step);
    if (link !== location.href) history.replaceState(null, "", link);
    buttons.next_game.disabled = !record.games.some((g) => g.start > index);
    buttons.next_blunder.disabled = analysis === null;
    document.body.dataset.step = String(index);
    document.body.dataset.move = step.kind === "entry" ? String(step.n) : "start";
    document.body.dataset.game = String(step.game);
  }

  function go(next) {
    index = Math.max(0, Math.min(steps.length - 1, next));
    show();
  }

  function nextBlunder() {
    const found = steps.findIndex((s, i) => i > index && blunders.has(i));
    if (found >= 0) go(found);
    else note.textContent = words.no_blunder;
  }

  async function copyLink() {
    const link = linkTo(steps[index]);
    try {
      await navigator.clipboard.writeText(link);
    } catch (e) {
      // No clipboard here (a page over plain http): the address bar has the link too.
      const field = node("textarea", "", document.body, link);
      field.select();
      document.execCommand("copy");
      field.remove();
    }
    note.textContent = words.copied;
    document.body.dataset.copied = link;
  }

  const buttons = {};
  const actions = [
    ["first", () => go(0)],
    ["back", () => go(index - 1)],
    ["forward", () => go(index + 1)],
    ["last", () => go(steps.length - 1)],
    ["next_game", () => { const g = record.games.find((x) => x.start > index); if (g) go(g.start); }],
    ["next_blunder", nextBlunder],
    ["copy_link", copyLink],
  ];
  for (const [key, act] of actions) {
    const b = node("button", "", bar, words[key]);
    b.id = key.replace("_", "-");
    b.addEventListener("click", act);
    buttons[key] = b;
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") go(index - 1);
    if (e.key === "ArrowRight") go(index + 1);
  });
  show();
  if (!state.live) {
    note.textContent = words.analysing;
    try {
      analysis = await (await fetch(paths.analysis)).json();
      steps.forEach((step, i) => { const play = playOf(step); if (play && play.blunder) blunders.add(i); });
      show();
      if (analysis.error) note.textContent = words.no_analysis;
    } catch (e) {
      note.textContent = words.no_analysis;
    }
  }
  document.body.dataset.blunders = [...blunders].map((i) => steps[i].n).join(",");
  document.body.dataset.ready = "1";
}

if (document.body.dataset.page === "live") live();
else if (document.body.dataset.page === "replay") replay();
