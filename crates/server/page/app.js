// The chopsticks page: a client of the JSON API (see docs/API.md). The game lives
// here: a history of positions, each with the API's answer for it, a cursor for
// undo and redo, and who is to move. Everything drawn comes from those answers.

const API = "/api/v1/chopsticks";
const SVG = "http://www.w3.org/2000/svg";
// The rule options (switches and choices), as the server serves them from the
// rules crate's table (`GET /api/v1/chopsticks/`): the rule picker is built
// from them, so a new rule needs nothing here.
const OPTIONS = { switches: [], choices: [] };
// The computer's levels, as the server serves them from the learn crate's
// definitions (`GET /api/v1/chopsticks/`: `levels`, each with the probability
// of its best move; otherwise a legal move drawn uniformly).
const LEVELS = {};
const COMPUTER_DELAY_MS = 300;

const state = {
  variant: null, // canonical variant id
  rules: null, // the ruleset as JSON
  refused: null, // a variant asked for by the link and refused, before any game
  players: 2,
  teams: false,
  start: null, // start position id (`1_1111`: the seat to move, then every seat's hands)
  history: [], // {p, data, move}: move is the API's move that led here; data.player is the player to move, from 1
  cur: 0,
  selected: null, // {seat, index, value} of the mover's selected hand
  hint: null, // text of the hinted move
  timer: null, // pending computer move
  pending: false, // a move waiting for the server's answer
  answers: new Map(), // position text -> API answer, per variant
  people: [true, false], // per seat (0-based): a person plays it, else the computer
  mode: "play", // "play" or "puzzle"
  preview: null, // {title, steps: [{p, data, move}], k}: a line shown on the board, not played
  review: null, // the API's review of the game (history[k] is after review.moves[k - 1])
  puzzle: null, // {view, done, correct}: the puzzle being solved
  puzzleQueue: [], // puzzles fetched, not yet shown
  savedPeople: null, // who played each seat before the puzzles
};

const $ = (id) => document.getElementById(id);

async function getJSON(url) {
  const response = await fetch(url);
  let body;
  try {
    body = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
  return body;
}

// The positions endpoint for `p`; with the game's positions before it
// (`history`, oldest first) the values are the game's, its repetitions counted.
function positionURL(variant, p, history = []) {
  let url = `${API}/${encodeURIComponent(variant)}/positions/?p=${encodeURIComponent(p)}`;
  if (history.length) url += `&history=${encodeURIComponent(history.join(","))}`;
  return url;
}

async function answer(p, history = []) {
  const key = `${state.variant} ${history.join(",")} ${p}`;
  if (!state.answers.has(key)) {
    const data = await getJSON(positionURL(state.variant, p, history));
    if (!history.length) state.answers.set(`${state.variant}  ${data.position}`, data);
    state.answers.set(key, data);
  }
  return state.answers.get(key);
}

// The positions of the game up to the cursor, oldest first.
function gameSoFar() {
  return state.history.slice(0, state.cur + 1).map((h) => h.p);
}

// ---------------------------------------------------------------- players

// Seats are 0-based here; the API numbers them from 1 (`turn`, `seat`).
function isHuman(seat) {
  return Boolean(state.people[seat]);
}

function humans() {
  return state.people.filter(Boolean).length;
}

function entry() {
  return state.history[state.cur];
}

// Threefold repetition, as in chess: a game that comes back to the same position
// (the same hands, the same player to move: the same position id) a third time is
// a draw, and ends there.
const REPETITIONS = 3;

// How often the position of history[k] came up in the game up to it.
function timesSeen(k) {
  const p = state.history[k].p;
  let n = 0;
  for (let j = 0; j <= k; j++) if (state.history[j].p === p) n++;
  return n;
}

// Whether the game shown ended in a draw by repetition at the cursor.
function drawnByRepetition() {
  return state.history.length > 0 && timesSeen(state.cur) >= REPETITIONS;
}

// What the board shows: a step of a line being previewed, or the game's position.
function shown() {
  if (state.preview) return state.preview.steps[state.preview.k];
  return entry();
}

function turnOf(e) {
  return e.data.player - 1;
}

function teamOf(seat) {
  return (seat % 2) + 1;
}

function playerName(seat) {
  let who = "";
  if (!isHuman(seat)) who = " (computer)";
  else if (humans() === 1 && state.people.length > 1) who = " (you)";
  const team = state.teams ? `, team ${teamOf(seat)}` : "";
  return `Player ${seat + 1}${who}${team}`;
}

function valueWords(value, remoteness) {
  if (value === "draw") return "draw";
  if (remoteness === null || remoteness === undefined) return value;
  return `${value} in ${remoteness}`;
}

// The mover's outcome after a move, in plies from the position the move is made in.
function moveWords(m) {
  if (m.moveValue === "draw") return "draw";
  return valueWords(m.moveValue, m.moveRemoteness);
}

// The seats still in at a finished position: the winners (misère: the losers).
function over(e) {
  const alive = e.data.players.filter((s) => s.alive).map((s) => s.player);
  const winners = e.data.players.filter((s) => s.value === "win").map((s) => s.player);
  if (state.teams) {
    const team = winners.length ? teamOf(winners[0] - 1) : teamOf(alive[0] - 1);
    return `Game over: team ${team} wins.`;
  }
  const list = winners.length ? winners : alive;
  if (list.length === 1) return `Game over: Player ${list[0]} wins.`;
  return `Game over: Players ${list.join(", ")} win.`;
}

// ---------------------------------------------------------------- game flow

async function newGame(p = state.start) {
  cancelComputer();
  const data = await answer(p);
  state.history = [{ p: data.position, data, move: null }];
  state.cur = 0;
  state.preview = null;
  state.review = null;
  $("review").hidden = true;
  state.selected = null;
  state.hint = null;
  render();
  computerMaybe();
}

// A move clicked or chosen: in a puzzle being solved, judged first.
async function play(move) {
  if (state.mode === "puzzle" && state.puzzle && !state.puzzle.done) return puzzleMove(move);
  return makeMove(move);
}

async function makeMove(move) {
  if (state.pending) return;
  cancelComputer();
  const here = entry();
  state.pending = true;
  let data;
  try {
    data = await answer(move.position, gameSoFar());
  } finally {
    state.pending = false;
  }
  if (entry() !== here) return;
  state.history = state.history.slice(0, state.cur + 1);
  state.history.push({ p: data.position, data, move });
  state.cur += 1;
  state.selected = null;
  state.hint = null;
  render();
  computerMaybe();
}

function cancelComputer() {
  if (state.timer !== null) {
    clearTimeout(state.timer);
    state.timer = null;
  }
}

function chooseComputerMove(moves) {
  const p = LEVELS[$("level").value]?.best ?? 1;
  if (p >= 1 || Math.random() < p) return moves[0];
  return moves[Math.floor(Math.random() * moves.length)];
}

function computerMaybe() {
  const e = entry();
  if (!e || e.data.terminal || drawnByRepetition() || isHuman(turnOf(e)) || state.cur !== state.history.length - 1) return;
  if (e.data.moves.length === 0) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    if (entry() === e) play(chooseComputerMove(e.data.moves)).catch(showError);
  }, COMPUTER_DELAY_MS);
  render();
}

function canGoBackTo(k) {
  return humans() === 0 || isHuman(turnOf(state.history[k]));
}

function undoTarget() {
  for (let k = state.cur - 1; k >= 0; k--) if (canGoBackTo(k)) return k;
  return null;
}

function redoTarget() {
  for (let k = state.cur + 1; k < state.history.length; k++) {
    if (canGoBackTo(k) || k === state.history.length - 1) return k;
  }
  return null;
}

function goTo(k) {
  if (k === null || k < 0 || k >= state.history.length) return;
  cancelComputer();
  state.preview = null;
  state.cur = k;
  state.selected = null;
  state.hint = null;
  render();
  computerMaybe();
}

function showHint() {
  const e = entry();
  if (e.data.terminal || drawnByRepetition() || e.data.moves.length === 0) return;
  state.hint = e.data.moves[0].move;
  render();
}

// ---------------------------------------------------------------- the board

function interactive() {
  const e = entry();
  if (state.preview || (state.mode === "puzzle" && (!state.puzzle || state.puzzle.done))) return false;
  return !e.data.terminal && !drawnByRepetition() && isHuman(turnOf(e)) && state.timer === null && !state.pending;
}

// The move of the mover's hand `from` onto the hand `to` of `seat` (0-based).
function findMove(seat, from, to) {
  const e = entry();
  const self = seat === turnOf(e);
  return e.data.moves.find((m) => {
    if (self) return m.detail.type === "self-tap" && m.detail.from === from && m.detail.to === to;
    return m.detail.type === "tap" && m.detail.from === from && m.detail.to === to && m.targetPlayer === seat + 1;
  });
}

function clickHand(seat, index, value) {
  if (!interactive()) return;
  const e = entry();
  const mine = seat === turnOf(e);
  if (state.selected === null) {
    if (mine && value > 0) state.selected = { seat, index, value };
  } else if (mine && index === state.selected.index) {
    state.selected = null;
  } else if (value > 0) {
    const m = findMove(seat, state.selected.value, value);
    if (m) return play(m).catch(showError);
    if (mine) state.selected = { seat, index, value };
  }
  render();
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// A hand at (x, y) of its seat's group, fingers pointing to local -y (the middle).
// `upright` turns its number back upright when the group is rotated.
function drawHand(group, x, value, fingers, upright, opts) {
  const g = el("g", { class: "hand", transform: `translate(${x},0)` }, group);
  if (value === 0) g.classList.add("dead");
  if (opts.selected) g.classList.add("selected");
  if (opts.target) g.classList.add("target");
  if (opts.clickable) {
    g.classList.add("clickable");
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
  }
  g.setAttribute("aria-label", `${opts.owner} hand with ${value === 0 ? "no fingers (dead)" : `${value} finger${value === 1 ? "" : "s"}`}`);
  g.dataset.player = opts.seat;
  g.dataset.index = opts.index;
  g.dataset.value = value;
  el("rect", { x: -32, y: 0, width: 64, height: 48, rx: 16, class: "palm" }, g);
  const slots = Math.min(fingers - 1, 5);
  if (fingers <= 6) {
    for (let k = 0; k < slots; k++) {
      const up = k < value;
      const fx = -28 + k * (56 / slots) + (56 / slots - 9) / 2;
      el("rect", { x: fx, y: up ? -34 : -8, width: 9, height: up ? 38 : 12, rx: 4.5, class: up ? "finger up" : "finger" }, g);
    }
  }
  const label = el("text", { x: 0, y: 30, class: "count", transform: `rotate(${upright} 0 24)` }, g);
  label.textContent = value === 0 ? "✕" : String(value);
  const handler = () => clickHand(opts.seat, opts.index, value);
  g.addEventListener("click", handler);
  g.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      handler();
    }
  });
  return g;
}

// Where each seat sits: two players face each other (Player 1 at the bottom);
// three or four sit round the table, clockwise from Player 1 at the bottom.
function seatPlaces(n) {
  if (n === 2) {
    return { width: 400, height: 300, places: [{ x: 200, y: 200, angle: 0 }, { x: 200, y: 100, angle: 180 }] };
  }
  const places = [];
  for (let k = 0; k < n; k++) {
    const angle = (360 * k) / n;
    const rad = ((90 + angle) * Math.PI) / 180;
    places.push({ x: 250 + 150 * Math.cos(rad), y: 235 + 150 * Math.sin(rad), angle });
  }
  return { width: 500, height: 470, places };
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const e = shown();
  const fingers = state.rules.fingers;
  const turn = turnOf(e);
  const live = interactive();
  const { width, height, places } = seatPlaces(e.data.players.length);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  e.data.players.forEach((seatData, seat) => {
    const place = places[seat];
    const mover = seat === turn;
    const group = el("g", { class: `seat-group team${state.teams ? teamOf(seat) : ""}`, transform: `translate(${place.x},${place.y}) rotate(${place.angle})` }, svg);
    group.dataset.seat = seat;
    const n = seatData.hands.length;
    const spacing = Math.min(84, 300 / n);
    const scale = Math.min(1, spacing / 76);
    const hands = el("g", { transform: `scale(${scale})` }, group);
    seatData.hands.forEach((value, index) => {
      const x = ((index - (n - 1) / 2) * spacing) / scale;
      const selected = mover && state.selected !== null && state.selected.index === index;
      let target = false;
      if (state.selected !== null && value > 0 && !selected) target = Boolean(findMove(seat, state.selected.value, value));
      const clickable = live && (mover ? value > 0 : state.selected !== null && target);
      drawHand(hands, x, value, fingers, -place.angle, {
        seat, index, selected, target, clickable, owner: `Player ${seat + 1}'s`,
      });
    });
    // The seat's name and value, upright, beyond its hands (kept on the board).
    const show = $("show-values").checked;
    const rad = ((90 + place.angle) * Math.PI) / 180;
    // Above or below a seat at the top or bottom; above the hands of a seat at a side.
    const side = Math.abs(Math.cos(rad)) > 0.5;
    const lx = Math.min(width - 95, Math.max(95, side ? place.x : place.x + 70 * Math.cos(rad)));
    const ly = Math.min(height - 22, Math.max(18, side ? place.y - 100 : place.y + 70 * Math.sin(rad)));
    // Nobody is to move in a game that is over, by the rules or by repetition.
    const over = e.data.terminal || (!state.preview && drawnByRepetition());
    const label = el("text", { x: lx, y: ly, class: `seat${mover && !over ? " to-move" : ""}` }, svg);
    label.dataset.seat = seat;
    let words = playerName(seat);
    if (mover && !over) words += " — to move";
    label.textContent = words;
    if (show && !e.data.terminal) {
      const v = el("text", { x: lx, y: ly + 16, class: `seat-value ${valueClass(seatData.value)}` }, svg);
      v.textContent = seatData.alive ? valueWords(seatData.value, seatData.remoteness) : "out";
    }
  });
}

// ---------------------------------------------------------------- lists and text

function valueClass(value) {
  return { win: "win", lose: "lose", draw: "draw" }[value] || "unknown";
}

// A move's name for people: with three or more players, the tapped seat by number.
function moveName(m) {
  if (state.players > 2 && m.detail.type === "tap") return `tap ${m.detail.from}→${m.detail.to} on Player ${m.targetPlayer}`;
  return m.move;
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const e = shown();
  // A game that is over, by the rules or by repetition, lists no move.
  const repeated = !state.preview && drawnByRepetition();
  if (e.data.moves.length === 0 || repeated) {
    const li = document.createElement("li");
    li.textContent = repeated ? "No moves: the game is drawn by threefold repetition." : "No moves: the game is over.";
    list.appendChild(li);
    return;
  }
  // Values, colours, the best-first order and the lines are shown only when
  // "Show values" is on, and never in a puzzle not yet answered: otherwise the
  // moves come in the rules' order, plain.
  const unanswered = state.mode === "puzzle" && !(state.puzzle && state.puzzle.done);
  const show = $("show-values").checked && !unanswered;
  const live = interactive();
  // Shade moves of the same value by how much slower they are than the best.
  const deltas = {};
  for (const m of e.data.moves) (deltas[m.moveValue] ??= new Set()).add(m.deltaRemoteness);
  const listed = show ? e.data.moves : [...e.data.moves].sort((a, c) => a.order - c.order);
  for (const m of listed) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.className = `move ${show ? valueClass(m.moveValue) : "plain"}`;
    if (state.hint === m.move) b.classList.add("hinted");
    if (show) {
      const rank = [...deltas[m.moveValue]].sort((a, c) => a - c).indexOf(m.deltaRemoteness);
      b.style.opacity = String([1, 0.8, 0.65, 0.5][Math.min(rank, 3)]);
    }
    b.dataset.move = m.move;
    b.dataset.value = m.moveValue;
    b.disabled = !live;
    const name = moveName(m);
    b.textContent = show ? `${name} — ${moveWords(m)}` : name;
    b.title = `${m.kind}: to ${m.position}`;
    if (m.targetPlayer) b.dataset.target = m.targetPlayer;
    b.addEventListener("click", () => play(m).catch(showError));
    const lineButton = document.createElement("button");
    lineButton.className = "line-button";
    lineButton.textContent = "line";
    lineButton.title = `The line after ${m.move}, both sides playing their best`;
    lineButton.setAttribute("aria-label", `Show the line after ${m.move}`);
    lineButton.dataset.move = m.move;
    lineButton.addEventListener("click", () => toggleMoveLine(li, m).catch(showError));
    const row = document.createElement("div");
    row.className = "move-row";
    row.append(b);
    if (show) row.append(lineButton);
    li.appendChild(row);
    list.appendChild(li);
  }
}

function drawStatus() {
  const e = entry();
  const status = $("status");
  const show = $("show-values").checked;
  status.className = "";
  if (state.preview) {
    const pv = state.preview;
    const step = pv.steps[pv.k];
    status.textContent = `${pv.title}: ${pv.k === 0 ? "the position" : `move ${pv.k} of ${pv.steps.length - 1}, ${step.move.player ? `P${step.move.player} ` : ""}${step.move.move}`}${step.data.terminal ? " — game over" : ""}`;
    status.classList.add("preview");
    return;
  }
  if (e.data.terminal) {
    status.textContent = over(e);
    status.classList.add("over");
    return;
  }
  if (drawnByRepetition()) {
    status.textContent = "Game over: a draw by threefold repetition (this position, with the same player to move, came up a third time).";
    status.classList.add("over");
    return;
  }
  const turn = turnOf(e);
  let text = `${playerName(turn)} to move`;
  if (show) {
    text += `: ${valueWords(e.data.positionValue, e.data.remoteness)}`;
    status.classList.add(valueClass(e.data.positionValue));
  }
  if (state.timer !== null) text += " — thinking…";
  if (state.hint) {
    const m = e.data.moves.find((x) => x.move === state.hint);
    text += `. Hint: ${m ? moveName(m) : state.hint}${m ? ` (${moveWords(m)})` : ""}`;
  }
  status.textContent = text;
}

// Every seat's value: its own against all the others (coalition values), or its
// team's.
function drawSeatValues() {
  const list = $("seat-values");
  list.replaceChildren();
  const e = shown();
  const show = $("show-values").checked;
  list.hidden = !show || state.players === 2;
  for (const s of e.data.players) {
    const li = document.createElement("li");
    li.className = valueClass(s.value);
    li.dataset.seat = s.player;
    li.dataset.value = s.value;
    const who = state.teams ? `Player ${s.player} (team ${teamOf(s.player - 1)})` : `Player ${s.player}`;
    li.textContent = `${who}: ${s.alive ? valueWords(s.value, s.remoteness) : "out"}`;
    list.appendChild(li);
  }
}

function drawHistory() {
  if (state.players > 2) return drawLanes();
  const svg = $("history");
  svg.replaceChildren();
  const shown = state.history.slice(0, state.cur + 1);
  const e = entry();
  const rowH = 22;
  const top = 26;
  const height = top + (shown.length + 1) * rowH + 6;
  svg.setAttribute("viewBox", `0 0 400 ${height}`);
  let maxR = 5;
  for (const h of shown) if (h.data.positionValue !== "draw") maxR = Math.max(maxR, h.data.remoteness ?? 0);
  for (const m of e.data.moves) if (m.positionValue !== "draw") maxR = Math.max(maxR, m.remoteness ?? 0);
  const scale = 150 / maxR;
  // x of a position whose mover (turn) has this value at this remoteness.
  const xOf = (turn, value, r) => {
    if (value === "draw") return 200;
    const p1Wins = (value === "win") === (turn === 0);
    return p1Wins ? 30 + (r ?? 0) * scale : 370 - (r ?? 0) * scale;
  };
  for (const [x, label] of [[30, "P1 wins"], [200, "D"], [370, "P2 wins"]]) {
    const t = el("text", { x, y: 14, class: "axis" }, svg);
    t.textContent = label;
  }
  el("line", { x1: 200, y1: 18, x2: 200, y2: height, class: "centre" }, svg);
  const points = shown.map((h, k) => ({
    x: xOf(turnOf(h), h.data.positionValue, h.data.remoteness),
    y: top + k * rowH + rowH / 2,
    h,
    k,
  }));
  points.forEach((pt) => {
    el("rect", { x: 0, y: pt.y - rowH / 2, width: 400, height: rowH, class: `turn${turnOf(pt.h)}` }, svg);
  });
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1];
    const b = points[k];
    el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `link ${valueClass(b.h.move.moveValue)}` }, svg);
  }
  for (const pt of points) {
    const c = el("circle", { cx: pt.x, cy: pt.y, r: 6, class: `dot ${valueClass(pt.h.data.positionValue)}` }, svg);
    const t = el("title", {}, c);
    t.textContent = `${pt.h.p}: ${playerName(turnOf(pt.h))}, ${valueWords(pt.h.data.positionValue, pt.h.data.remoteness)}${pt.h.move ? ` (after ${pt.h.move.move})` : ""}`;
    c.addEventListener("click", () => goTo(pt.k));
    const label = el("text", { x: 396, y: pt.y + 4, class: "move-name" }, svg);
    label.textContent = pt.h.move ? pt.h.move.move : "start";
    const verdict = reviewedAt(pt.k);
    if (verdict && verdict.verdict.kind !== "best") {
      const bad = !["slower-win", "faster-loss"].includes(verdict.verdict.kind);
      c.classList.add("mistake");
      const mark = el("text", { x: pt.x + 9, y: pt.y + 4, class: `mark ${bad ? "blunder" : "inaccuracy"}` }, svg);
      mark.textContent = bad ? "??" : "?!";
      const t2 = el("title", {}, mark);
      t2.textContent = `${pt.h.move.move}: ${verdictWords(verdict.verdict)}`;
      mark.addEventListener("click", () => showReviewedMove(pt.k));
    }
  }
  // The next moves, as small dots in the row below; clicking one plays it.
  if (!e.data.terminal && interactive()) {
    const y = top + shown.length * rowH + rowH / 2;
    for (const m of e.data.moves) {
      const c = el("circle", { cx: xOf(1 - turnOf(e), m.positionValue, m.remoteness), cy: y, r: 4, class: `next ${valueClass(m.moveValue)}` }, svg);
      const t = el("title", {}, c);
      t.textContent = `${m.move}: ${moveWords(m)}`;
      c.addEventListener("click", () => play(m).catch(showError));
    }
  }
}

// Three or more players: one lane per seat (per team in team play). In a lane, a
// win for that seat is on the left (sooner: further left), a loss on the right, a
// draw in the middle.
function drawLanes() {
  const svg = $("history");
  svg.replaceChildren();
  const shown = state.history.slice(0, state.cur + 1);
  const lanes = state.teams
    ? [{ name: "Team 1", seat: 0 }, { name: "Team 2", seat: 1 }]
    : state.history[0].data.players.map((s) => ({ name: `P${s.player}`, seat: s.player - 1 }));
  const rowH = 22;
  const top = 26;
  const width = 400 - 40;
  const laneW = width / lanes.length;
  const height = top + shown.length * rowH + 6;
  svg.setAttribute("viewBox", `0 0 400 ${height}`);
  let maxR = 5;
  for (const h of shown) for (const s of h.data.players) if (s.value !== "draw") maxR = Math.max(maxR, s.remoteness ?? 0);
  const xOf = (lane, value, r) => {
    const left = lane * laneW;
    const half = laneW / 2 - 8;
    if (value === "draw") return left + laneW / 2;
    const offset = ((r ?? 0) / maxR) * (half - 4);
    return value === "win" ? left + 8 + offset : left + laneW - 8 - offset;
  };
  shown.forEach((h, k) => {
    const y = top + k * rowH;
    const moverLane = state.teams ? turnOf(h) % 2 : turnOf(h);
    el("rect", { x: moverLane * laneW, y, width: laneW, height: rowH, class: "mover-lane" }, svg);
    const label = el("text", { x: 396, y: y + rowH / 2 + 4, class: "move-name" }, svg);
    label.textContent = h.move ? `P${h.move.player}` : "start";
  });
  lanes.forEach((lane, j) => {
    const t = el("text", { x: j * laneW + laneW / 2, y: 14, class: "axis" }, svg);
    t.textContent = `${lane.name}: win · D · lose`;
    if (j > 0) el("line", { x1: j * laneW, y1: 18, x2: j * laneW, y2: height, class: "lane-edge" }, svg);
    const points = shown.map((h, k) => {
      const s = h.data.players[lane.seat];
      return { x: xOf(j, s.value, s.remoteness), y: top + k * rowH + rowH / 2, s, h, k };
    });
    for (let k = 1; k < points.length; k++) {
      el("line", { x1: points[k - 1].x, y1: points[k - 1].y, x2: points[k].x, y2: points[k].y, class: `link ${valueClass(points[k].s.value)}` }, svg);
    }
    for (const pt of points) {
      const c = el("circle", { cx: pt.x, cy: pt.y, r: 5, class: `dot ${valueClass(pt.s.value)}` }, svg);
      c.dataset.lane = lane.name;
      const verdict = reviewedAt(pt.k);
      if (verdict && verdict.verdict.kind !== "best" && verdict.player - 1 === lane.seat) c.classList.add("mistake");
      const t = el("title", {}, c);
      t.textContent = `${pt.h.p}: ${lane.name} ${pt.s.alive ? valueWords(pt.s.value, pt.s.remoteness) : "out"}${pt.h.move ? ` (after ${pt.h.move.move} by Player ${pt.h.move.player})` : ""}`;
      c.addEventListener("click", () => goTo(pt.k));
    }
  });
}

function drawValue() {
  const e = entry();
  const cgt = e.data.cgt;
  const box = $("cgt");
  box.hidden = !cgt;
  if (!cgt) return;
  const words = { L: "Left wins", R: "Right wins", N: "the first player wins", P: "the second player wins" };
  $("cgt-value").textContent = cgt.error
    ? `${cgt.paper}: ${cgt.error}`
    : `${cgt.paper} = ${cgt.value} (${cgt.outcome}: ${words[cgt.outcome]}; Left is the player to move)`;
}

function updateLink() {
  const e = entry();
  const params = state.mode === "puzzle" && state.puzzle
    ? new URLSearchParams({ variant: state.variant, puzzle: state.puzzle.view.position })
    : new URLSearchParams({ variant: state.variant, p: e.p });
  const url = `/?${params}`;
  $("link").href = url;
  $("link").textContent = state.mode === "puzzle" ? "Link to this puzzle" : "Link to this position";
  fillRecord();
  history.replaceState(null, "", url);
  $("position-input").value = e.p;
}

// A refused variant with no game before it: its rules in the panel, the
// reason in the status, no board, no move, and every control that needs a
// game disabled until other rules are played.
function drawRefused() {
  const info = state.refused;
  $("variant-line").textContent = `${info.name} — variant ${info.id} (refused)`;
  const status = $("status");
  status.textContent = `Refused: ${info.refused}. Choose smaller rules and press Play these rules.`;
  status.className = "error";
  $("board").replaceChildren();
  $("moves").replaceChildren();
  $("history").replaceChildren();
  $("seat-values").replaceChildren();
  for (const id of ["new-game", "undo", "redo", "hint", "review-button", "mode-puzzles", "strategy-button", "print-sheet-button", "position-input", "record-load"]) $(id).disabled = true;
  $("link").hidden = true;
}

function render() {
  if (state.refused) return drawRefused();
  for (const id of ["new-game", "mode-puzzles", "strategy-button", "print-sheet-button", "position-input", "record-load"]) $(id).disabled = false;
  $("link").hidden = false;
  document.body.dataset.mode = state.mode;
  drawStatus();
  drawSeatValues();
  drawBoard();
  drawMoves();
  drawHistory();
  drawValue();
  updateLink();
  drawPreviewControls();
  drawPuzzle();
  $("undo").disabled = undoTarget() === null || state.mode === "puzzle";
  $("redo").disabled = redoTarget() === null || state.mode === "puzzle";
  $("hint").disabled = !interactive();
  $("review-button").disabled = state.history.length < 2 || state.mode === "puzzle";
  $("variant-line").textContent = `${state.rulesText} — variant ${state.variant}`;
  $("history-note").textContent = state.players > 2
    ? `One row per position, newest at the bottom; one lane per ${state.teams ? "team" : "player"}: a win for it on the lane's left (further left: sooner), a loss on the right, a draw in the middle; the mover's lane is shaded. Click a dot to go back.`
    : "One row per position, newest at the bottom; the left edge is a win for Player 1, the right edge a win for Player 2, the middle column a draw. Click a dot to go back.";
}

// The seat controls: who plays each seat.
function drawSeatControls() {
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < state.players; seat++) {
    const label = document.createElement("label");
    label.textContent = `Player ${seat + 1}${state.teams ? ` (team ${teamOf(seat)})` : ""} `;
    const select = document.createElement("select");
    select.id = `seat-${seat + 1}`;
    for (const [value, words] of [["person", "a person"], ["computer", "the computer"]]) {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = words;
      select.appendChild(o);
    }
    select.value = isHuman(seat) ? "person" : "computer";
    select.addEventListener("change", () => {
      state.people[seat] = select.value === "person";
      cancelComputer();
      render();
      computerMaybe();
    });
    label.appendChild(select);
    box.appendChild(label);
  }
}

function showError(error) {
  const status = $("status");
  status.textContent = `Error: ${error.message}`;
  status.className = "error";
}

// ---------------------------------------------------------------- rules

function fillRules(rules) {
  $("players").value = String(rules.hands.length);
  $("hands").value = rules.hands[0];
  $("fingers").value = rules.fingers;
  for (const s of OPTIONS.switches) $(s.token).checked = Boolean(rules[s.field]);
  for (const c of OPTIONS.choices) {
    let value = rules[c.field];
    // Older answers wrote pass-splits as a boolean.
    if (value === true) value = c.values[c.values.length - 1].value;
    if (value === false || value == null) value = c.values[0].value;
    $(c.name).value = value;
  }
}

// Builds the rule picker's switches and choices from the served options: an
// element the page already has (the teams box by the players, the overflow
// menu) is used where it is, the others are added to the switches' fieldset.
function buildRulePicker(game) {
  OPTIONS.switches = game.switches ?? [];
  for (const l of game.levels ?? []) LEVELS[l.name] = l;
  const levelBox = $("level");
  if (game.levels?.length) {
    levelBox.replaceChildren(...game.levels.map((l) => {
      const o = document.createElement("option");
      o.value = l.name;
      o.textContent = l.label;
      o.title = l.description;
      return o;
    }));
  }
  OPTIONS.choices = game.choices ?? [];
  const box = $("switches");
  for (const c of OPTIONS.choices) {
    let select = $(c.name);
    if (!select) {
      const label = document.createElement("label");
      label.append(`${c.label} `);
      select = document.createElement("select");
      select.id = c.name;
      label.append(select);
      box.append(label);
    }
    for (const v of c.values) {
      const o = document.createElement("option");
      o.value = v.value;
      o.textContent = v.label;
      select.append(o);
    }
  }
  for (const s of OPTIONS.switches) {
    let input = $(s.token);
    if (!input) {
      const label = document.createElement("label");
      input = document.createElement("input");
      input.type = "checkbox";
      input.id = s.token;
      label.append(input, ` ${s.label}`);
      // The choices' menus come last, as before.
      const firstMenu = [...box.querySelectorAll("label")].find((l) => l.querySelector("select"));
      box.insertBefore(label, firstMenu ?? null);
    }
    // What a switch implies is shown at once: even divisions check divisions
    // and uncheck near-even ones, no divisions uncheck both.
    input.addEventListener("change", () => {
      const implied = input.checked ? s.on_sets : s.off_sets;
      for (const [token, on] of implied) $(token).checked = on;
    });
  }
}

// The rule picker names what is played: the preset chosen says the variant's
// players, hands, fingers, teams and moves (`simple: 4 players × 2 hands, F = 5
// cutoff; attack` when four play Simple Chopsticks), not the preset's own two
// players; the other presets keep their own description. `info`: the variant
// played (the API's answer), or null for the presets' own descriptions.
function labelPresets(info) {
  const played = info ? info.id.split(".")[0] : null;
  for (const o of $("preset").options) {
    const name = o.value === played && info.id !== o.value ? info.name : o.dataset.name;
    o.textContent = `${o.value}: ${name}`;
  }
}

function variantFromForm() {
  const tokens = [$("preset").value, `p${$("players").value}`, `h${$("hands").value}`, `f${$("fingers").value}`];
  for (const c of OPTIONS.choices) {
    const chosen = c.values.find((v) => v.value === $(c.name).value) ?? c.values[0];
    tokens.push(chosen.token);
  }
  for (const s of OPTIONS.switches) tokens.push($(s.token).checked ? s.token : `no-${s.token}`);
  return tokens.join(".");
}

// Switches to a variant, at a position (the start by default). Nothing changes on
// the page unless the variant and the position are both accepted.
// Switches to a variant, at a position (the start by default). Nothing changes on
// the page unless the variant and the position are both accepted.
async function loadVariant(variant, p = null) {
  const info = await getJSON(`${API}/${encodeURIComponent(variant)}/`);
  if (info.refused) {
    // The panel shows what was asked; with no game to go back to, the page
    // shows the refusal alone, everything that needs a game disabled.
    fillRules(info.ruleset);
    const asked = info.id.split(".")[0];
    if ([...$("preset").options].some((o) => o.value === asked)) $("preset").value = asked;
    if (state.history.length === 0) {
      state.refused = info;
      drawRefused();
      return;
    }
    throw new Error(info.refused);
  }
  state.refused = null;
  const first = await getJSON(positionURL(info.id, p ?? info.startPosition));
  const changed = state.variant !== info.id;
  state.variant = info.id;
  state.rules = info.ruleset;
  state.rulesText = info.name;
  state.start = info.startPosition;
  state.players = info.playerCount;
  state.teams = Boolean(info.ruleset.teams);
  state.answers.set(`${info.id}  ${first.position}`, first);
  if (changed || state.people.length !== state.players) {
    // One person, Player 1; the computer plays every other seat.
    state.people = Array.from({ length: state.players }, (_, k) => k === 0);
  }
  $("strategy").replaceChildren();
  $("sheet-box").replaceChildren();
  state.puzzleQueue = [];
  fillRules(info.ruleset);
  drawSeatControls();
  const preset = info.id.split(".")[0];
  if ([...$("preset").options].some((o) => o.value === preset)) $("preset").value = preset;
  labelPresets(info);
  await newGame(first.position);
  if (state.mode === "puzzle") await nextPuzzle();
}


// A strategy configuration (arrays of hands, `null` for any value) as the
// command line prints it: `[1,2],[0,1]`.
function configurationText(c) {
  return c.map((hands) => `[${hands.map((v) => (v === null ? "?" : v)).join(",")}]`).join(",");
}

async function showStrategy() {
  const box = $("strategy");
  box.textContent = "Working…";
  try {
    const s = await getJSON(`${API}/${encodeURIComponent(state.variant)}/strategy`);
    box.replaceChildren();
    const intro = document.createElement("p");
    const list = document.createElement("ol");
    const start = s.startPlayers[0];
    if (s.player) {
      const who = s.concept === "teams"
        ? `Team ${teamOf(s.player - 1)} (Player ${s.player} and partner)`
        : `Player ${s.player}`;
      const against = s.concept === "coalition" ? " even against all the others playing together" : "";
      const whose = s.concept === "two-player" ? "[your hands],[opponent's hands]" : "[your hands], then the next players' in turn order";
      intro.textContent = `${who} can force a win${against} (${valueWords(s.startPlayers[s.player - 1].value, s.startPlayers[s.player - 1].remoteness)} from the start). After each of your moves, reach the first configuration of this list that you can (${whose})${s.winImmediately ? "; win at once when you can" : ""}. Checked against every defence (${s.positionsFaced} positions faced).`;
      for (const c of s.configurations) {
        const li = document.createElement("li");
        li.textContent = configurationText(c);
        list.appendChild(li);
      }
    } else if (s.avoid.length === 0) {
      const each = s.startPlayers.map((o) => `Player ${o.player}: ${valueWords(o.value, o.remoteness)}`).join("; ");
      intro.textContent = s.concept === "coalition"
        ? `Nobody can force a win alone: against all the others playing together, every player loses (${each}).`
        : `Nobody can force a win from the start (${each}).`;
    } else {
      intro.textContent = `Nobody can force a win (the first player: ${valueWords(start.value, start.remoteness)}). Never leave your opponent${state.players > 2 ? "s" : ""} in one of these configurations ([your hands], then the others' in turn order):`;
      for (const a of s.avoid) {
        const li = document.createElement("li");
        li.textContent = `${configurationText(a.configuration)} (the next player wins in ${a.opponentWinsIn})`;
        list.appendChild(li);
      }
    }
    box.append(intro, list);
  } catch (error) {
    box.textContent = `Error: ${error.message}`;
  }
}

// ---------------------------------------------------------------- learning: lines, reviews, records, puzzles

const VERDICTS = {
  best: "best",
  "slower-win": "a slower win",
  "faster-loss": "a faster loss",
  "win-to-draw": "a win thrown away: now a draw",
  "win-to-loss": "a win thrown away: now a loss",
  "draw-to-loss": "a draw thrown away: now a loss",
};

function verdictWords(v) {
  const base = VERDICTS[v.kind] ?? v.kind;
  if (v.plies) return `${base} (${v.plies} ${v.plies === 1 ? "ply" : "plies"} ${v.kind === "slower-win" ? "longer" : "sooner"})`;
  return base;
}

function outcomeWords(o) {
  return valueWords(o.value, o.remoteness);
}

// A line as text: `P2 tap 1→1, P1 tap 2→2 (game over)`.
function lineText(line) {
  const moves = line.steps.map((s) => `P${s.player} ${s.move}`);
  let end;
  if (line.end.kind === "finished") end = line.steps.length ? "game over" : "the game is over";
  else if (line.end.kind === "repeated") end = line.end.ply === 0 ? "back where the line started: a draw" : `back to the position after its move ${line.end.ply}: a draw`;
  else end = `a draw; its first ${line.steps.length} plies`;
  if (!moves.length) return end;
  moves[moves.length - 1] += ` (${end})`;
  return moves.join(", ");
}

// The review's entry for the move that led to history[k], if the review is of this game.
function reviewedAt(k) {
  const r = state.review;
  if (!r || k < 1 || k > r.moves.length) return null;
  const m = r.moves[k - 1];
  return state.history[k] && state.history[k].p === m.to ? m : null;
}

// Shows a line on the board, step by step, without playing it.
async function startPreview(title, line) {
  cancelComputer();
  const positions = [line.start, ...line.steps.map((s) => s.position)];
  const datas = await Promise.all(positions.map((p) => answer(p)));
  state.preview = {
    title,
    k: 0,
    steps: datas.map((data, k) => ({ p: data.position, data, move: k === 0 ? null : line.steps[k - 1] })),
  };
  render();
}

function endPreview() {
  state.preview = null;
  render();
  computerMaybe();
}

function stepPreview(by) {
  const pv = state.preview;
  if (!pv) return;
  pv.k = Math.max(0, Math.min(pv.steps.length - 1, pv.k + by));
  render();
}

function drawPreviewControls() {
  const box = $("preview-controls");
  box.hidden = !state.preview;
  if (!state.preview) return;
  const pv = state.preview;
  $("preview-back").disabled = pv.k === 0;
  $("preview-next").disabled = pv.k === pv.steps.length - 1;
  $("preview-step").textContent = `${pv.k} / ${pv.steps.length - 1}`;
}

async function toggleMoveLine(li, m) {
  const open = li.querySelector(".line-box");
  if (open) {
    open.remove();
    return;
  }
  const box = document.createElement("div");
  box.className = "line-box";
  box.textContent = "Working…";
  li.appendChild(box);
  const line = await getJSON(`${API}/${encodeURIComponent(state.variant)}/line?p=${encodeURIComponent(m.position)}`);
  box.replaceChildren();
  const text = document.createElement("span");
  text.className = "line-text";
  text.textContent = `Then: ${lineText(line)}`;
  const show = document.createElement("button");
  show.textContent = "Show on the board";
  show.className = "small";
  show.addEventListener("click", () => startPreview(`The line after ${m.move}`, { ...line, start: entry().p, steps: [{ player: m.player, move: m.move, position: m.position }, ...line.steps] }).catch(showError));
  box.append(text, " ", show);
}

// ------------------------------------------ game records

function recordText() {
  const lines = ["# A game of Chopsticks, from the page: `chopsticks review FILE` reviews it.", `variant ${state.variant}`];
  if (state.history[0].p !== state.start) lines.push(`start ${state.history[0].p}`);
  state.history.slice(1).forEach((h, k) => lines.push(`${k + 1}. ${h.move.move}`));
  return `${lines.join("\n")}\n`;
}

function fillRecord() {
  const box = $("record-text");
  if (document.activeElement !== box && $("record-box").open) box.value = recordText();
}

async function postReview(text) {
  const response = await fetch(`${API}/${encodeURIComponent(state.variant)}/review`, {
    method: "POST",
    headers: { "content-type": "text/plain; charset=utf-8" },
    body: text,
  });
  let body;
  try {
    body = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
  return body;
}

async function reviewGame() {
  const box = $("review");
  box.hidden = false;
  $("review-summary").textContent = "Reviewing…";
  try {
    state.review = await postReview(recordText());
    drawReview();
    render();
    box.scrollIntoView({ block: "start" });
  } catch (error) {
    $("review-summary").textContent = `Error: ${error.message}`;
  }
}

// Loads a record: replays it (the server checks every move) and reviews it.
async function loadRecord(text) {
  $("record-error").textContent = "";
  try {
    if (state.mode === "puzzle") leavePuzzles(false);
    const named = /^\s*variant\s+(\S+)/m.exec(text.replace(/#.*$/gm, ""));
    if (named && named[1] !== state.variant) {
      const info = await getJSON(`${API}/${encodeURIComponent(named[1])}/`);
      if (info.id !== state.variant) await loadVariant(info.id);
    }
    const r = await postReview(text);
    const positions = [r.start, ...r.moves.map((m) => m.to)];
    const datas = await Promise.all(positions.map((p, k) => answer(p, positions.slice(0, k))));
    cancelComputer();
    state.history = datas.map((data, k) => ({
      p: data.position,
      data,
      move: k === 0 ? null : datas[k - 1].moves.find((m) => m.move === r.moves[k - 1].move),
    }));
    state.cur = state.history.length - 1;
    state.preview = null;
    state.review = r;
    // Nobody is the computer while a loaded game is looked at.
    state.people = state.people.map(() => true);
    drawSeatControls();
    $("review").hidden = false;
    drawReview();
    render();
  } catch (error) {
    $("record-error").textContent = error.message;
  }
}

function drawReview() {
  const r = state.review;
  if (!r) return;
  const summary = $("review-summary");
  summary.replaceChildren();
  for (const p of r.players) {
    const li = document.createElement("li");
    if (p.moves === 0) {
      li.textContent = `Player ${p.player}: no move`;
    } else {
      const faults = [];
      if (p.thrownWins) faults.push(`${p.thrownWins} win${p.thrownWins === 1 ? "" : "s"} thrown away`);
      if (p.thrownDraws) faults.push(`${p.thrownDraws} draw${p.thrownDraws === 1 ? "" : "s"} thrown away`);
      if (p.slowerWins) faults.push(`${p.slowerWins} slower win${p.slowerWins === 1 ? "" : "s"}`);
      if (p.fasterLosses) faults.push(`${p.fasterLosses} faster loss${p.fasterLosses === 1 ? "" : "es"}`);
      li.textContent = `Player ${p.player}: accuracy ${Math.round(p.accuracy * 100)}% (${p.kept} of ${p.moves} moves kept the value), ${p.best} best${faults.length ? `; ${faults.join(", ")}` : ""}`;
    }
    li.dataset.player = p.player;
    summary.appendChild(li);
  }
  const list = $("review-moves");
  list.replaceChildren();
  r.moves.forEach((m, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    const bad = !["best", "slower-win", "faster-loss"].includes(m.verdict.kind);
    b.className = `reviewed ${m.verdict.kind === "best" ? "best" : bad ? "blunder" : "inaccuracy"}`;
    b.dataset.ply = m.ply;
    b.dataset.verdict = m.verdict.kind;
    b.textContent = `${m.ply}. P${m.player} ${m.move}${m.verdict.kind === "best" ? "" : bad ? " ??" : " ?!"} — ${outcomeWords(m.before)} → ${outcomeWords(m.after)}`;
    b.addEventListener("click", () => showReviewedMove(k + 1));
    li.appendChild(b);
    list.appendChild(li);
  });
  $("review-detail").replaceChildren();
}

// Shows the position after a reviewed move, and what the move did.
function showReviewedMove(k) {
  const m = reviewedAt(k);
  if (!m) return;
  goTo(k);
  const box = $("review-detail");
  box.replaceChildren();
  const head = document.createElement("p");
  head.textContent = `${m.ply}. Player ${m.player} played ${m.move}: ${verdictWords(m.verdict)} (${outcomeWords(m.before)} before, ${outcomeWords(m.after)} after).`;
  box.appendChild(head);
  if (m.verdict.kind !== "best") {
    const best = document.createElement("p");
    best.textContent = `Best: ${m.best.join(", ")} (${outcomeWords(m.before)}).`;
    box.appendChild(best);
    const lines = [
      ["refutation", `Refutation of ${m.move}`, m.refutation],
      ["best-line", `After ${m.best[0]}`, m.bestLine],
    ];
    for (const [id, title, line] of lines) {
      if (!line) continue;
      const p = document.createElement("p");
      p.className = "line-text";
      p.textContent = `${title}: ${lineText(line)}`;
      const b = document.createElement("button");
      b.className = "small";
      b.id = `play-${id}`;
      b.textContent = id === "refutation" ? "Play the refutation" : "Play the best line";
      // The best line starts after the best move: show the position before it first.
      const shownLine = id === "refutation" ? line : { ...line, start: m.from, steps: [{ player: m.player, move: m.best[0], position: line.start }, ...line.steps] };
      b.addEventListener("click", () => startPreview(title, shownLine).catch(showError));
      p.append(" ", b);
      box.appendChild(p);
    }
  }
}

// ------------------------------------------ puzzles

function streaks() {
  const get = (k) => Number(localStorage.getItem(k) || 0);
  return { streak: get("chopsticks-streak"), best: get("chopsticks-best-streak") };
}

function setStreak(n) {
  localStorage.setItem("chopsticks-streak", String(n));
  const { best } = streaks();
  if (n > best) localStorage.setItem("chopsticks-best-streak", String(n));
}

async function enterPuzzles(first = null) {
  if (state.mode !== "puzzle") {
    state.savedPeople = state.people;
    state.mode = "puzzle";
  }
  state.people = state.people.map(() => true);
  drawSeatControls();
  $("review").hidden = true;
  if (first) return loadPuzzle(first);
  return nextPuzzle();
}

function leavePuzzles(restart = true) {
  state.mode = "play";
  state.puzzle = null;
  if (state.savedPeople) state.people = state.savedPeople;
  state.savedPeople = null;
  drawSeatControls();
  if (restart) newGame().catch(showError);
  else render();
}

async function nextPuzzle() {
  if (state.puzzleQueue.length === 0 || state.puzzleQueue[0].variant !== state.variant) {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const params = new URLSearchParams({ count: "20", seed: String(seed), difficulty: $("puzzle-difficulty").value, kind: $("puzzle-kind").value });
    $("puzzle-result").textContent = "Finding puzzles…";
    const got = await getJSON(`${API}/${encodeURIComponent(state.variant)}/puzzles?${params}`);
    state.puzzleQueue = got.puzzles.map((view) => ({ variant: state.variant, view }));
    if (state.puzzleQueue.length === 0) {
      state.puzzle = null;
      $("puzzle-result").textContent = got.total === 0 ? "This variant has no puzzle: no reachable position has exactly one good move." : "No puzzle of this kind and difficulty: try another.";
      render();
      return;
    }
  }
  // Never the puzzle just played again while another is queued.
  const current = state.puzzle ? state.puzzle.view.position : null;
  if (state.puzzleQueue.length > 1 && state.puzzleQueue[0].view.position === current) state.puzzleQueue.shift();
  await loadPuzzle(state.puzzleQueue.shift().view);
}

async function loadPuzzle(view) {
  state.puzzle = { view, done: false, correct: null, played: [], failed: null, hint: false, slower: null, busy: false, progress: null, rated: null };
  await newGame(view.position);
}

// The player's move in a puzzle: judged by the API with the moves so far
// (`played`); a right move is made with the solver's replies, a slower win
// is not made, a wrong one fails the puzzle.
async function puzzleMove(move) {
  const pz = state.puzzle;
  if (pz.busy) return;
  pz.busy = true;
  try {
    const played = [...pz.played, move.move];
    const params = new URLSearchParams({ p: pz.view.position, played: played.join(",") });
    const got = await getJSON(`${API}/${encodeURIComponent(state.variant)}/puzzles?${params}`);
    if (state.puzzle !== pz) return;
    const pr = got.progress;
    if (pr.verdict === "slower") {
      pz.slower = move.move;
      render();
      return;
    }
    pz.slower = null;
    pz.progress = pr;
    await makeMove(move);
    if (pr.verdict === "wrong") {
      pz.failed = { move: move.move };
      await finishPuzzle(false);
      return;
    }
    pz.played = played;
    for (const r of pr.replies) {
      const e = entry();
      const reply = e.data.moves.find((m) => m.move === r.move) || { move: r.move, position: r.to };
      await makeMove(reply);
    }
    if (pr.end) await finishPuzzle(!pz.hint);
    else render();
  } finally {
    pz.busy = false;
  }
}

// The stored puzzle rating (Glicko-2), a new player's when none.
function storedRating() {
  try {
    const r = JSON.parse(localStorage.getItem("chopsticks-puzzle-rating") || "null");
    if (r && Number.isFinite(r.rating) && Number.isFinite(r.deviation) && Number.isFinite(r.volatility)) return r;
  } catch (_) {
    // A rating that cannot be read starts again.
  }
  return null;
}

async function finishPuzzle(solved) {
  const pz = state.puzzle;
  pz.done = true;
  pz.correct = solved;
  setStreak(solved ? streaks().streak + 1 : 0);
  const before = storedRating();
  const params = new URLSearchParams({ puzzle: String(pz.view.rating), solved: String(solved) });
  if (before) for (const k of ["rating", "deviation", "volatility"]) params.set(k, String(before[k]));
  try {
    const after = await getJSON(`${API}/rating?${params}`);
    const puzzles = (before?.puzzles || 0) + 1;
    localStorage.setItem("chopsticks-puzzle-rating", JSON.stringify({ rating: after.rating, deviation: after.deviation, volatility: after.volatility, puzzles }));
    pz.rated = { before: before ? `${Math.round(before.rating)} ± ${Math.round(before.deviation)}` : "1500 ± 350", after: after.text, change: Math.round(after.rating - (before ? before.rating : 1500)) };
  } catch (error) {
    showError(error);
  }
  render();
}

async function giveUpPuzzle() {
  const pz = state.puzzle;
  if (!pz || pz.done) return;
  await finishPuzzle(false);
}

function drawPuzzle() {
  const box = $("puzzle");
  box.hidden = state.mode !== "puzzle";
  if (box.hidden) return;
  const { streak, best } = streaks();
  $("puzzle-streak").textContent = `Streak: ${streak} (best ${best})`;
  const kept = storedRating();
  const pz = state.puzzle;
  $("puzzle-rating").textContent = pz && pz.rated
    ? `Your rating: ${pz.rated.before} → ${pz.rated.after} (${pz.rated.change >= 0 ? "+" : ""}${pz.rated.change}).`
    : `Your rating: ${kept ? `${Math.round(kept.rating)} ± ${Math.round(kept.deviation)}` : "1500 ± 350 (new)"}.`;
  $("puzzle-hint").disabled = !pz || pz.done;
  $("puzzle-give-up").disabled = !pz || pz.done;
  const lines = $("puzzle-lines");
  lines.replaceChildren();
  const why = $("puzzle-why");
  why.replaceChildren();
  why.hidden = true;
  if (!pz) return;
  const v = pz.view;
  $("puzzle-goal").textContent = v.goal;
  const toFind = `${v.steps} ${v.steps === 1 ? "move" : "moves"} to find`;
  $("puzzle-grade").textContent = `Difficulty ${v.difficulty} of 5 (${v.grade}), rated ${v.rating}: ${toFind}, ${v.moves.length} moves at the first.`;
  const result = $("puzzle-result");
  result.className = "";
  if (!pz.done) {
    const hint = pz.progress ? pz.progress.hint : v.hint;
    if (pz.slower) result.textContent = `${pz.slower} wins too, but slower: the puzzle asks for the fastest win. Try again.`;
    else if (pz.hint && hint) result.textContent = `Hint: ${hint}`;
    else result.textContent = pz.played.length ? "Right. Your move again." : "Your move.";
    return;
  }
  // Answered: why it is graded so, and the lines.
  for (const sentence of v.why) {
    const li = document.createElement("li");
    li.textContent = sentence;
    why.appendChild(li);
  }
  why.hidden = false;
  const end = pz.progress && pz.progress.text ? pz.progress.text : v.solution.text;
  const firstWrong = pz.failed && pz.played.length === 0 ? v.moves.find((m) => m.move === pz.failed.move) : null;
  if (pz.correct) {
    result.textContent = `Solved: ${end}.`;
    result.className = "right";
  } else if (pz.failed) {
    const value = firstWrong ? ` (${outcomeWords(firstWrong.value)})` : "";
    result.textContent = `Not ${pz.failed.move}${value}: the puzzle is failed. The expected move was ${pz.progress.rest.steps[0].move}.`;
    result.className = "wrong";
  } else if (pz.progress && pz.progress.end) {
    result.textContent = `Solved with a hint: ${end}.`;
  } else {
    result.textContent = `The answer is ${v.answer}.`;
  }
  const asLine = (steps) => ({ start: steps[0].position, steps: steps.map((st) => ({ player: st.player, move: st.move, position: st.to })), end: { kind: v.kind === "win" ? "finished" : "held" } });
  const shownLines = [["answer", "The solution", asLine(v.solution.steps)]];
  if (firstWrong) {
    shownLines.unshift(["refutation", `The refutation of ${firstWrong.move}`, { ...firstWrong.line, start: v.position, steps: [{ player: v.player, move: firstWrong.move, position: firstWrong.to }, ...firstWrong.line.steps] }]);
  } else if (pz.failed && pz.progress.rest.steps.length) {
    shownLines.push(["rest", "The solution from your last right move", asLine(pz.progress.rest.steps)]);
  }
  for (const [id, title, line] of shownLines) {
    const p = document.createElement("p");
    p.className = "line-text";
    p.textContent = `${title}: ${lineText(line)}`;
    const b = document.createElement("button");
    b.className = "small";
    b.id = `puzzle-play-${id}`;
    b.textContent = "Play it";
    b.addEventListener("click", () => startPreview(title, line).catch(showError));
    p.append(" ", b);
    lines.appendChild(p);
  }
}

// ------------------------------------------ the printable strategy sheet

function printSheet() {
  const box = $("sheet-box");
  box.replaceChildren();
  const img = document.createElement("img");
  img.alt = "The strategy sheet: each configuration of the list drawn with hands";
  img.id = "sheet";
  img.addEventListener("load", () => {
    document.body.classList.add("print-sheet");
    window.print();
  });
  img.addEventListener("error", () => {
    box.textContent = "Error: the sheet could not be drawn.";
  });
  img.src = `${API}/${encodeURIComponent(state.variant)}/strategy?format=svg`;
  box.appendChild(img);
}

// A worksheet of 12 puzzles of the chosen difficulty and kind, for a class:
// its pages (the API's SVG, one page a sheet of paper), then the print dialog.
async function printWorksheet() {
  const box = $("sheet-box");
  box.replaceChildren();
  const seed = Math.floor(Math.random() * 2 ** 31);
  const params = new URLSearchParams({ count: "12", seed: String(seed), difficulty: $("puzzle-difficulty").value, kind: $("puzzle-kind").value, format: "svg" });
  const base = `${API}/${encodeURIComponent(state.variant)}/puzzles?${params}`;
  const fetchPage = async (k) => {
    const r = await fetch(`${base}&page=${k}`);
    if (!r.ok) throw new Error(`the worksheet could not be drawn (${r.status})`);
    return r;
  };
  const first = await fetchPage(1);
  const pages = Number(first.headers.get("x-pages")) || 1;
  const blobs = [await first.blob()];
  for (let k = 2; k <= pages; k++) blobs.push(await (await fetchPage(k)).blob());
  let loaded = 0;
  blobs.forEach((blob, k) => {
    const img = document.createElement("img");
    img.className = "worksheet-page";
    img.alt = `Worksheet page ${k + 1} of ${pages}`;
    img.addEventListener("load", () => {
      loaded += 1;
      if (loaded === pages) {
        document.body.classList.add("print-sheet");
        window.print();
      }
    });
    img.src = URL.createObjectURL(blob);
    box.appendChild(img);
  });
}

// ---------------------------------------------------------------- wiring

function wire() {
  $("new-game").addEventListener("click", () => newGame().catch(showError));
  $("undo").addEventListener("click", () => goTo(undoTarget()));
  $("redo").addEventListener("click", () => goTo(redoTarget()));
  $("hint").addEventListener("click", showHint);
  $("show-values").addEventListener("change", render);
  $("players").addEventListener("change", () => {
    const four = $("players").value === "4";
    $("teams").disabled = !four;
    if (!four) $("teams").checked = false;
  });
  $("level").addEventListener("change", render);
  $("strategy-button").addEventListener("click", showStrategy);
  $("print-sheet-button").addEventListener("click", printSheet);
  $("puzzle-worksheet").addEventListener("click", () => printWorksheet().catch(showError));
  window.addEventListener("afterprint", () => document.body.classList.remove("print-sheet"));
  $("review-button").addEventListener("click", reviewGame);
  $("review-close").addEventListener("click", () => {
    $("review").hidden = true;
  });
  $("record-box").addEventListener("toggle", fillRecord);
  $("record-copy").addEventListener("click", async () => {
    fillRecord();
    try {
      await navigator.clipboard.writeText($("record-text").value);
      $("record-error").textContent = "Copied.";
    } catch {
      $("record-text").select();
      $("record-error").textContent = "Select the text and copy it (the browser did not allow copying).";
    }
  });
  $("record-load").addEventListener("click", () => loadRecord($("record-text").value));
  $("preview-back").addEventListener("click", () => stepPreview(-1));
  $("preview-next").addEventListener("click", () => stepPreview(1));
  $("preview-end").addEventListener("click", endPreview);
  $("mode-play").addEventListener("click", () => {
    if (state.mode === "puzzle") leavePuzzles();
  });
  $("mode-puzzles").addEventListener("click", () => enterPuzzles().catch(showError));
  $("puzzle-next").addEventListener("click", () => nextPuzzle().catch(showError));
  $("puzzle-hint").addEventListener("click", () => {
    if (state.puzzle) state.puzzle.hint = true;
    render();
  });
  $("puzzle-give-up").addEventListener("click", () => giveUpPuzzle().catch(showError));
  for (const id of ["puzzle-difficulty", "puzzle-kind"]) {
    $(id).addEventListener("change", () => {
      state.puzzleQueue = [];
      nextPuzzle().catch(showError);
    });
  }
  $("position-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    newGame($("position-input").value.trim()).catch(showError);
  });
  $("preset").addEventListener("change", async () => {
    // The form now shows the preset's own rules.
    labelPresets(null);
    try {
      const info = await getJSON(`${API}/${encodeURIComponent($("preset").value)}/`);
      fillRules(info.ruleset);
    } catch (error) {
      $("rules-error").textContent = error.message;
    }
  });
  $("rules-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("rules-error").textContent = "";
    try {
      await loadVariant(variantFromForm());
    } catch (error) {
      $("rules-error").textContent = error.message;
    }
  });
  $("sum-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const out = $("sum-result");
    out.textContent = "Working…";
    try {
      const params = new URLSearchParams({ expr: $("sum-input").value, variant: state.variant });
      const v = await getJSON(`/api/v1/value?${params}`);
      out.textContent = `= ${v.value} (${v.outcome})`;
    } catch (error) {
      out.textContent = `Error: ${error.message}`;
    }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const action = {
      u: () => goTo(undoTarget()),
      r: () => goTo(redoTarget()),
      h: showHint,
      n: () => (state.mode === "puzzle" ? nextPuzzle() : newGame()).catch(showError),
      ArrowLeft: () => stepPreview(-1),
      ArrowRight: () => stepPreview(1),
      Escape: () => state.preview && endPreview(),
    }[ev.key];
    if (action) action();
  });
}

async function main() {
  wire();
  try {
    const game = await getJSON(`${API}/`);
    buildRulePicker(game);
    for (const v of game.variants) {
      const o = document.createElement("option");
      o.value = v.id;
      o.textContent = `${v.id}: ${v.name}`;
      o.dataset.name = v.name;
      // The presets are the first word of an id; the list also has 3 and 4 players.
      if (!v.id.includes(".")) $("preset").appendChild(o);
    }
    const params = new URLSearchParams(location.search);
    const puzzle = params.get("puzzle");
    try {
      await loadVariant(params.get("variant") || "standard", puzzle ? null : params.get("p"));
    } catch (error) {
      // A link the page cannot follow (no such variant, a bad position):
      // the standard game, with the reason.
      if (state.history.length === 0 && !state.refused) await loadVariant("standard");
      throw error;
    }
    if (state.refused) return;
    if (puzzle) {
      const view = await getJSON(`${API}/${encodeURIComponent(state.variant)}/puzzles?p=${encodeURIComponent(puzzle)}`);
      await enterPuzzles(view);
    }
  } catch (error) {
    showError(error);
  }
}

main();
