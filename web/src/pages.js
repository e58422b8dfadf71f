// The spectator pages: the live board of a match and the replay of a match.
import { drawBoard, el, fmt, headline, readData, socketUrl, statusLine } from "./board.js";

const data = readData();
const words = data.words;
const theme = data.theme;
const app = document.getElementById("app");

function frame() {
  app.innerHTML = "";
  const head = document.createElement("h1");
  head.id = "headline";
  app.appendChild(head);
  const svg = el("svg", { id: "board", role: "img" }, app);
  const status = document.createElement("p");
  status.id = "status";
  status.className = "status";
  app.appendChild(status);
  return { head, svg, status };
}

function live() {
  const { head, svg, status } = frame();
  let state = data.state;
  function show() {
    head.textContent = headline(words, state);
    status.textContent = statusLine(words, state);
    if (state.game) drawBoard(svg, theme, state.game);
    document.body.dataset.version = String(state.version);
    // When each state was drawn, on the wall clock (benchmarks/web_live.py reads it).
    (window.gammonSeen = window.gammonSeen || []).push([state.version, Date.now()]);
  }
  show();
  let delay = 500;
  function connect() {
    const socket = new WebSocket(socketUrl(data.paths.socket));
    socket.onopen = () => { delay = 500; document.body.dataset.connected = "1"; };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state" && message.state) { state = message.state; show(); }
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
  const { head, svg, status } = frame();
  const bar = document.createElement("nav");
  bar.className = "controls";
  app.appendChild(bar);
  const note = document.createElement("p");
  note.id = "analysis";
  note.className = "analysis";
  app.appendChild(note);
  const chart = document.createElement("img");
  chart.id = "chart";
  chart.alt = words.win_chance;
  chart.hidden = true;
  app.appendChild(chart);
  const paths = data.paths;
  const body = await (await fetch(paths.frames)).json();
  const frames = body.frames;
  let analysis = null;
  let index = frames.length ? frames.length - 1 : 0;
  function show() {
    const f = frames[index];
    head.textContent = headline(words, body.state);
    if (!f) { status.textContent = words.not_found; return; }
    drawBoard(svg, theme, f.game);
    const who = f.player === null || f.player === undefined ? "" : `${body.state.names[f.player]}: `;
    const verb = words[f.action] || f.action; // roll, double, take, drop... in the page's language
    const what = f.notation || (f.dice ? `${verb} ${f.dice.join("-")}` : verb);
    status.textContent = `${index + 1}/${frames.length} · ${fmt(words, "game", { number: f.game_number })} · ${who}${what}`;
    document.body.dataset.frame = String(index);
    const game = analysis && analysis.games[String(f.game_number)];
    const play = game && f.play ? game.plays[String(f.play)] : null;
    note.textContent = play ? `${fmt(words, "error_lost", { value: play.lost.toFixed(3) })} · ${words.win_chance}: ${Math.round(play.win * 100)}%` : "";
    note.dataset.lost = play ? String(play.lost) : "";
    if (game) {
      const src = `${paths.chart}${f.game_number}.png?lang=${data.lang}`;
      if (chart.getAttribute("src") !== src) chart.setAttribute("src", src);
      chart.hidden = false;
    } else chart.hidden = true;
  }
  const buttons = [
    ["first", () => 0],
    ["back", () => Math.max(0, index - 1)],
    ["forward", () => Math.min(frames.length - 1, index + 1)],
    ["last", () => frames.length - 1],
  ];
  for (const [key, next] of buttons) {
    const b = document.createElement("button");
    b.id = key;
    b.textContent = words[key];
    b.addEventListener("click", () => { index = next(); show(); });
    bar.appendChild(b);
  }
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") { index = Math.max(0, index - 1); show(); }
    if (e.key === "ArrowRight") { index = Math.min(frames.length - 1, index + 1); show(); }
  });
  show();
  if (!body.state.live) {
    note.textContent = words.analysing;
    try {
      analysis = await (await fetch(paths.analysis)).json();
      if (analysis.error) note.textContent = words.no_analysis;
    } catch (e) {
      note.textContent = words.no_analysis;
    }
    show();
  }
  document.body.dataset.ready = "1";
}

if (document.body.dataset.page === "live") live();
else if (document.body.dataset.page === "replay") replay();
