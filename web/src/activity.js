// The Activity: Discord's SDK proves the player (a one-time code the server exchanges and
// checks with Discord), then the board of the channel's game is played by tapping checkers.
// Dragging a checker is the same two taps (its point, then where it lands). The server
// decides every legal tap (the tap picker's own logic); this page only shows.
import { DiscordSDK } from "@discord/embedded-app-sdk";
import { drawBoard, el, fmt, headline, readData, socketUrl, statusLine } from "./board.js";

const data = readData();
const words = data.words;
const theme = data.theme;
const app = document.getElementById("app");

app.innerHTML = "";
const head = document.createElement("h1");
head.id = "headline";
app.appendChild(head);
const svg = el("svg", { id: "board", role: "img" }, app);
svg.style.touchAction = "none"; // a finger on the board drags a checker, not the page
const status = document.createElement("p");
status.id = "status";
status.className = "status";
status.textContent = words.waiting_discord;
app.appendChild(status);
const bar = document.createElement("nav");
bar.className = "controls";
bar.id = "actions";
app.appendChild(bar);
const problem = document.createElement("p");
problem.id = "problem";
problem.className = "problem";
app.appendChild(problem);

let session = null;
let me = null; // my player index in the channel's match, or null (a watcher)
let state = null;
let taps = null; // the server's answer for the play being built
let steps = "";
let answers = 0; // tap answers drawn so far (tests wait on it)

async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (session) headers.Authorization = `Bearer ${session.session}`;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const answer = response.headers.get("Content-Type")?.includes("json") ? await response.json() : { error: await response.text() };
  if (!response.ok) throw Object.assign(new Error(answer.error || String(response.status)), { answer, status: response.status });
  return answer;
}

function button(key, label, onClick) {
  const b = document.createElement("button");
  b.id = `act-${key}`;
  b.textContent = label;
  b.addEventListener("click", onClick);
  bar.appendChild(b);
}

function draw() {
  bar.innerHTML = "";
  if (!state || !state.game) {
    head.textContent = state ? headline(words, state) : "";
    status.textContent = statusLine(words, state);
    svg.innerHTML = "";
    document.body.dataset.version = state ? String(state.version) : "none";
    return;
  }
  const game = state.game;
  const opts = { viewer: me === 1 ? 1 : 0 };
  if (taps && me !== null) {
    opts.onPoint = tapPoint;
    opts.highlight = taps.source === null ? taps.sources : [taps.source];
    opts.targets = taps.destinations.map((d) => d.target);
    opts.remaining = taps.remaining;
    drawBoard(svg, theme, { ...game, ...taps.board }, opts);
  } else {
    drawBoard(svg, theme, game, opts);
  }
  head.textContent = headline(words, state);
  let line = statusLine(words, state, me);
  if (me === null) line = `${line} ${words.spectator}`;
  else if (taps && !taps.complete) line = `${line} ${taps.source === null ? words.tap_checker : words.tap_target}`;
  if (game.resignation) line = `${fmt(words, "resigns", { name: state.names[game.resignation.player] })} ${line}`;
  status.textContent = line;
  if (me !== null && game.actor === me && state.live) {
    if (game.resignation) {
      button("accept", words.accept, () => send("resign_accept"));
      button("reject", words.reject, () => send("resign_reject"));
    } else if (game.phase === "roll") {
      button("roll", words.roll, () => send("roll"));
      if (game.can_double) button("double", words.double, () => send("double"));
    } else if (game.phase === "doubled") {
      button("take", words.take, () => send("take"));
      if (game.can_beaver) button("beaver", words.beaver, () => send("beaver"));
      button("drop", words.drop, () => send("drop"));
    } else if (game.phase === "move" && taps) {
      if (taps.complete) button("confirm", fmt(words, "confirm", { play: taps.play }), () => send("move"));
      if (steps) button("undo", words.undo, undo);
    }
  }
  document.body.dataset.version = String(state.version);
  document.body.dataset.me = me === null ? "watcher" : String(me);
  document.body.dataset.steps = steps;
  document.body.dataset.answers = String(answers);
  (window.gammonSeen = window.gammonSeen || []).push([state.version, Date.now()]);
}

async function refreshTaps(source = null) {
  taps = null;
  const game = state && state.game;
  if (me !== null && game && game.phase === "move" && game.actor === me && state.live) {
    try {
      taps = await api("api/activity/taps", { steps, source });
      answers += 1;
      window.gammonTaps = taps; // what tests read to choose their next tap
    } catch (e) {
      problem.textContent = e.message;
      steps = "";
    }
  }
  draw();
}

async function tapPoint(point) {
  if (!taps) return;
  problem.textContent = "";
  const destination = taps.destinations.find((d) => d.target === point);
  if (taps.source !== null && destination) {
    steps = steps ? `${steps}.${destination.steps}` : destination.steps;
    return refreshTaps(null);
  }
  if (taps.sources.includes(point)) return refreshTaps(point);
  return refreshTaps(null);
}

// A drag: pressed on a point with a movable checker, released on another point. The same
// two taps as a click on each, so the server checks it exactly as it checks taps.
let dragFrom = null;

function pointAt(event) {
  const found = document.elementFromPoint(event.clientX, event.clientY);
  const hit = found && found.closest ? found.closest("rect.tap") : null;
  return hit ? Number(hit.dataset.point) : null;
}

svg.addEventListener("pointerdown", (event) => {
  const point = pointAt(event);
  dragFrom = taps && point !== null && taps.sources.includes(point) ? point : null;
});

svg.addEventListener("pointerup", async (event) => {
  const from = dragFrom;
  dragFrom = null;
  const to = pointAt(event);
  if (from === null || to === null || to === from || !taps) return; // a click: tapPoint has it
  problem.textContent = "";
  if (taps.source !== from) await refreshTaps(from);
  const destination = taps && taps.destinations.find((d) => d.target === to);
  if (!destination) return refreshTaps(null);
  steps = steps ? `${steps}.${destination.steps}` : destination.steps;
  document.body.dataset.dragged = String((Number(document.body.dataset.dragged) || 0) + 1);
  return refreshTaps(null);
});

function undo() {
  const groups = steps ? steps.split(".") : [];
  groups.pop();
  steps = groups.join(".");
  refreshTaps(null);
}

async function send(verb) {
  problem.textContent = "";
  try {
    const answer = await api("api/activity/act", { verb, match: state.match, version: state.version, steps });
    steps = "";
    accept(answer.state);
  } catch (e) {
    problem.textContent = e.message;
  }
}

function accept(next) {
  if (next && state && next.match === state.match && next.version < state.version) return;
  const changed = !state || !next || next.version !== state.version || next.match !== state.match;
  state = next;
  if (changed) steps = "";
  identify();
  if (changed) refreshTaps(null); else draw();
}

function identify() {
  me = null;
  if (state && session && state.player_ids) {
    const i = state.player_ids.indexOf(session.user);
    me = i >= 0 ? i : null;
  }
}

function listen() {
  const socket = new WebSocket(socketUrl(`api/activity/ws?session=${encodeURIComponent(session.session)}`));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") accept(message.state);
  };
  socket.onclose = () => { status.textContent = words.reconnecting; setTimeout(listen, 1000); };
}

async function start() {
  const sdk = new DiscordSDK(data.client_id, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({ client_id: data.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"] });
  const { access_token } = await api("api/token", { code });
  session = await api("api/activity/session", { access_token, instance_id: sdk.instanceId });
  document.body.dataset.user = session.user;
  if (session.notice) problem.textContent = session.notice; // why there is no game here
  accept(session.state);
  listen();
}

start().catch((e) => {
  problem.textContent = words.refused;
  document.body.dataset.failed = e && e.status ? String(e.status) : "1";
});
