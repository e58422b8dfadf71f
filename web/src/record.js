// A match's record as the pages show it: the server's frames (the board after each logged
// event) turned into steps a reader counts. A roll is shown with the play that follows it,
// so a step is a game's start (its opening roll) or one entry of the record: a play, a
// forced pass, a cube action, a resignation or a claim. Entries are numbered through the
// match: "move 14" is the 14th entry, never the 14th event.
import { fmt } from "./board.js";

const ENTRIES = new Set(["move", "pass", "double", "take", "beaver", "drop", "resign", "resign_accept", "resign_reject", "claim"]);
const STARTS = new Set(["start", "next_game", "opening"]);
const KINDS = { single: 1, gammon: 2, backgammon: 3 };

// { steps, games, total }: each step { kind: "start" | "entry", frame, n, game }, ``n`` the
// entry's number (a start carries the number of the entries before it), ``opening`` on a
// game's first play (made with the opening roll, one die each); each game
// { number, start, end, result, final } with ``start``/``end`` indexes into ``steps``.
export function buildRecord(frames) {
  const steps = [];
  const games = [];
  let n = 0;
  for (const frame of frames) {
    let game = games[games.length - 1];
    if (!game || game.number !== frame.game_number) {
      game = { number: frame.game_number, start: steps.length, end: null, result: null, final: null, played: false };
      games.push(game);
      steps.push({ kind: "start", frame, n, game: frame.game_number });
    }
    if (STARTS.has(frame.action)) {
      // The game's start shows its opening roll once it is rolled (who starts, with what).
      const first = steps[game.start];
      if (steps.length - 1 === game.start) first.frame = frame;
      continue;
    }
    if (!ENTRIES.has(frame.action)) continue; // a roll: shown with the play it is played by
    n += 1;
    const play = frame.action === "move" || frame.action === "pass";
    steps.push({ kind: "entry", frame, n, game: frame.game_number, opening: play && !game.played });
    if (play) game.played = true;
    if (frame.game.result && !game.result) {
      game.result = frame.game.result;
      game.final = frame.game.final_score;
      game.end = steps.length - 1;
    }
  }
  return { steps, games, total: n };
}

// "2 points" in the page's language.
export function pointsWords(words, count) {
  return fmt(words, count === 1 ? "point" : "points", { n: count });
}

// One step in words: "alice 3-1: 8/5 6/5", "bob doubles", "Opening: alice 3, bob 1".
export function stepWords(words, names, step) {
  const f = step.frame;
  if (step.kind === "start") {
    if (f.action === "opening" && f.dice) {
      return fmt(words, "step_opening", { first: names[0], a: f.dice[0], second: names[1], b: f.dice[1] });
    }
    return fmt(words, "game", { number: step.game });
  }
  const who = f.player === null || f.player === undefined ? "" : names[f.player];
  const dice = f.dice ? `${f.dice[0]}-${f.dice[1]}` : "";
  switch (f.action) {
    case "move": return fmt(words, "step_move", { who, dice, play: f.notation });
    case "pass": return fmt(words, "step_pass", { who, dice });
    case "resign": return fmt(words, "step_resign", { who, what: words[`kind_${KINDS[f.notation] || 1}`] });
    case "claim": return fmt(words, f.notation === "game" ? "step_claim_game" : "step_claim_match", { who });
    default: return fmt(words, `step_${f.action}`, { who });
  }
}

// Who won a game, and what: "alice wins 2 points".
export function gameResultWords(words, names, result) {
  return fmt(words, "game_won", { winner: names[result.winner], points: pointsWords(words, result.points) });
}

// Who won the match, and the final score: "alice wins the match 4–2." (null while it is
// played); a money game's winner wins its points.
export function matchResultWords(words, state) {
  if (state.winner === null || state.winner === undefined) return null;
  const game = state.game;
  if (game && !game.length && game.result) return gameResultWords(words, state.names, game.result);
  const score = state.final_score || [0, 0];
  return fmt(words, "match_won", { winner: state.names[state.winner], a: score[0], b: score[1] });
}

// "3 min", "1 h 5 min": how long something has lasted.
export function duration(words, seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return fmt(words, "seconds", { n: s });
  const m = Math.floor(s / 60);
  if (m < 60) return fmt(words, "minutes", { n: m });
  const h = Math.floor(m / 60);
  if (h < 24) return fmt(words, "hours", { h, m: m % 60 });
  return fmt(words, "days", { d: Math.floor(h / 24), h: h % 24 });
}
