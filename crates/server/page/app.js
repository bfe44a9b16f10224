// The chopsticks page: a client of the JSON API (see docs/API.md). The game lives
// here: a history of positions, each with the API's answer for it, a cursor for
// undo and redo, and who is to move. Everything drawn comes from those answers.

const API = "/api/v1/chopsticks";
const SVG = "http://www.w3.org/2000/svg";
const SWITCHES = ["self-attack", "transfer", "divide", "even-divide", "near-even-divide", "suicide", "misere"];
const FIELD = {
  "self-attack": "self_attack", transfer: "transfer", divide: "divide", "even-divide": "even_divide",
  "near-even-divide": "near_even_divide", suicide: "suicide", misere: "misere",
};
// Pass-splits: the token of each value of the select.
const PASS_TOKEN = { off: "no-pass-splits", live: "pass-splits-live", any: "pass-splits" };
const LEVELS = { perfect: 1, strong: 0.9, casual: 0.6, random: 0 };
const COMPUTER_DELAY_MS = 300;

const state = {
  variant: null, // canonical variant id
  rules: null, // the ruleset as JSON
  players: 2,
  teams: false,
  start: null, // start position id (`1_1111`: the seat to move, then every seat's hands)
  history: [], // {p, data, move}: move is the API's move that led here; data.turn is the seat to move
  cur: 0,
  selected: null, // {seat, index, value} of the mover's selected hand
  hint: null, // text of the hinted move
  timer: null, // pending computer move
  pending: false, // a move waiting for the server's answer
  answers: new Map(), // position text -> API answer, per variant
  people: [true, false], // per seat (0-based): a person plays it, else the computer
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

function positionURL(variant, p) {
  return `${API}/${encodeURIComponent(variant)}/positions/?p=${encodeURIComponent(p)}`;
}

async function answer(p) {
  const key = `${state.variant} ${p}`;
  if (!state.answers.has(key)) {
    const data = await getJSON(positionURL(state.variant, p));
    state.answers.set(`${state.variant} ${data.position}`, data);
    state.answers.set(key, data);
  }
  return state.answers.get(key);
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

function turnOf(e) {
  return e.data.turn - 1;
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
  const alive = e.data.seats.filter((s) => s.alive).map((s) => s.seat);
  const winners = e.data.seats.filter((s) => s.value === "win").map((s) => s.seat);
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
  state.selected = null;
  state.hint = null;
  render();
  computerMaybe();
}

async function play(move) {
  if (state.pending) return;
  cancelComputer();
  const here = entry();
  state.pending = true;
  let data;
  try {
    data = await answer(move.position);
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
  const p = LEVELS[$("level").value] ?? 1;
  if (Math.random() < p) return moves[0];
  return moves[Math.floor(Math.random() * moves.length)];
}

function computerMaybe() {
  const e = entry();
  if (!e || e.data.terminal || isHuman(turnOf(e)) || state.cur !== state.history.length - 1) return;
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
  state.cur = k;
  state.selected = null;
  state.hint = null;
  render();
  computerMaybe();
}

function showHint() {
  const e = entry();
  if (e.data.terminal || e.data.moves.length === 0) return;
  state.hint = e.data.moves[0].move;
  render();
}

// ---------------------------------------------------------------- the board

function interactive() {
  const e = entry();
  return !e.data.terminal && isHuman(turnOf(e)) && state.timer === null && !state.pending;
}

// The move of the mover's hand `from` onto the hand `to` of `seat` (0-based).
function findMove(seat, from, to) {
  const e = entry();
  const self = seat === turnOf(e);
  return e.data.moves.find((m) => {
    if (self) return m.detail.type === "self-tap" && m.detail.from === from && m.detail.to === to;
    return m.detail.type === "tap" && m.detail.from === from && m.detail.to === to && m.targetSeat === seat + 1;
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
  const e = entry();
  const fingers = state.rules.fingers;
  const turn = turnOf(e);
  const live = interactive();
  const { width, height, places } = seatPlaces(e.data.seats.length);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  e.data.seats.forEach((seatData, seat) => {
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
    const label = el("text", { x: lx, y: ly, class: `seat${mover ? " to-move" : ""}` }, svg);
    label.dataset.seat = seat;
    let words = playerName(seat);
    if (mover && !e.data.terminal) words += " — to move";
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
  if (state.players > 2 && m.detail.type === "tap") return `tap ${m.detail.from}→${m.detail.to} on Player ${m.targetSeat}`;
  return m.move;
}

function drawMoves() {
  const list = $("moves");
  list.replaceChildren();
  const e = entry();
  const show = $("show-values").checked;
  const live = interactive();
  // Shade moves of the same value by how much slower they are than the best.
  const deltas = {};
  for (const m of e.data.moves) (deltas[m.moveValue] ??= new Set()).add(m.deltaRemoteness);
  for (const m of e.data.moves) {
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
    if (m.targetSeat) b.dataset.target = m.targetSeat;
    b.addEventListener("click", () => play(m).catch(showError));
    li.appendChild(b);
    list.appendChild(li);
  }
  if (e.data.moves.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No moves: the game is over.";
    list.appendChild(li);
  }
}

function drawStatus() {
  const e = entry();
  const status = $("status");
  const show = $("show-values").checked;
  status.className = "";
  if (e.data.terminal) {
    status.textContent = over(e);
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
  const e = entry();
  const show = $("show-values").checked;
  list.hidden = !show || state.players === 2;
  for (const s of e.data.seats) {
    const li = document.createElement("li");
    li.className = valueClass(s.value);
    li.dataset.seat = s.seat;
    li.dataset.value = s.value;
    const who = state.teams ? `Player ${s.seat} (team ${teamOf(s.seat - 1)})` : `Player ${s.seat}`;
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
    : state.history[0].data.seats.map((s) => ({ name: `P${s.seat}`, seat: s.seat - 1 }));
  const rowH = 22;
  const top = 26;
  const width = 400 - 40;
  const laneW = width / lanes.length;
  const height = top + shown.length * rowH + 6;
  svg.setAttribute("viewBox", `0 0 400 ${height}`);
  let maxR = 5;
  for (const h of shown) for (const s of h.data.seats) if (s.value !== "draw") maxR = Math.max(maxR, s.remoteness ?? 0);
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
    label.textContent = h.move ? `P${h.move.seat}` : "start";
  });
  lanes.forEach((lane, j) => {
    const t = el("text", { x: j * laneW + laneW / 2, y: 14, class: "axis" }, svg);
    t.textContent = `${lane.name}: win · D · lose`;
    if (j > 0) el("line", { x1: j * laneW, y1: 18, x2: j * laneW, y2: height, class: "lane-edge" }, svg);
    const points = shown.map((h, k) => {
      const s = h.data.seats[lane.seat];
      return { x: xOf(j, s.value, s.remoteness), y: top + k * rowH + rowH / 2, s, h, k };
    });
    for (let k = 1; k < points.length; k++) {
      el("line", { x1: points[k - 1].x, y1: points[k - 1].y, x2: points[k].x, y2: points[k].y, class: `link ${valueClass(points[k].s.value)}` }, svg);
    }
    for (const pt of points) {
      const c = el("circle", { cx: pt.x, cy: pt.y, r: 5, class: `dot ${valueClass(pt.s.value)}` }, svg);
      c.dataset.lane = lane.name;
      const t = el("title", {}, c);
      t.textContent = `${pt.h.p}: ${lane.name} ${pt.s.alive ? valueWords(pt.s.value, pt.s.remoteness) : "out"}${pt.h.move ? ` (after ${pt.h.move.move} by Player ${pt.h.move.seat})` : ""}`;
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
  const params = new URLSearchParams({ variant: state.variant, p: e.p });
  const url = `/?${params}`;
  $("link").href = url;
  history.replaceState(null, "", url);
  $("position-input").value = e.p;
}

function render() {
  drawStatus();
  drawSeatValues();
  drawBoard();
  drawMoves();
  drawHistory();
  drawValue();
  updateLink();
  $("undo").disabled = undoTarget() === null;
  $("redo").disabled = redoTarget() === null;
  $("hint").disabled = !interactive();
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
  $("teams").checked = Boolean(rules.teams);
  $("hands").value = rules.hands[0];
  $("fingers").value = rules.fingers;
  $("overflow").value = rules.overflow;
  for (const s of SWITCHES) $(s).checked = Boolean(rules[FIELD[s]]);
  // Older answers wrote a boolean.
  const pass = rules.pass_splits;
  $("pass-splits").value = pass === true ? "any" : pass === false || pass == null ? "off" : pass;
}

function variantFromForm() {
  const tokens = [$("preset").value, `p${$("players").value}`, `h${$("hands").value}`, `f${$("fingers").value}`, $("overflow").value];
  tokens.push($("teams").checked ? "teams" : "no-teams");
  for (const s of SWITCHES) {
    if (s === "divide" || s === "even-divide" || s === "near-even-divide") continue;
    tokens.push($(s).checked ? s : `no-${s}`);
  }
  if ($("even-divide").checked) tokens.push("even-divide", "no-near-even-divide");
  else if ($("near-even-divide").checked) tokens.push("near-even-divide", "no-even-divide");
  else if ($("divide").checked) tokens.push("divide", "no-even-divide", "no-near-even-divide");
  else tokens.push("no-divide");
  tokens.push(PASS_TOKEN[$("pass-splits").value] ?? "no-pass-splits");
  return tokens.join(".");
}

// Switches to a variant, at a position (the start by default). Nothing changes on
// the page unless the variant and the position are both accepted.
// Switches to a variant, at a position (the start by default). Nothing changes on
// the page unless the variant and the position are both accepted.
async function loadVariant(variant, p = null) {
  const info = await getJSON(`${API}/${encodeURIComponent(variant)}/`);
  if (info.refused) throw new Error(info.refused);
  const first = await getJSON(positionURL(info.id, p ?? info.startPosition));
  const changed = state.variant !== info.id;
  state.variant = info.id;
  state.rules = info.ruleset;
  state.rulesText = info.name;
  state.start = info.startPosition;
  state.players = info.players;
  state.teams = Boolean(info.ruleset.teams);
  state.answers.set(`${info.id} ${first.position}`, first);
  if (changed || state.people.length !== state.players) {
    // One person, Player 1; the computer plays every other seat.
    state.people = Array.from({ length: state.players }, (_, k) => k === 0);
  }
  $("strategy").replaceChildren();
  fillRules(info.ruleset);
  drawSeatControls();
  const preset = info.id.split(".")[0];
  if ([...$("preset").options].some((o) => o.value === preset)) $("preset").value = preset;
  await newGame(first.position);
}

async function showStrategy() {
  const box = $("strategy");
  box.textContent = "Working…";
  try {
    const s = await getJSON(`${API}/${encodeURIComponent(state.variant)}/strategy`);
    box.replaceChildren();
    const intro = document.createElement("p");
    const list = document.createElement("ol");
    const start = s.startSeats[0];
    if (s.winner) {
      const who = s.concept === "teams"
        ? `Team ${teamOf(s.winnerSeat - 1)} (Player ${s.winnerSeat} and partner)`
        : `Player ${s.winnerSeat}`;
      const against = s.concept === "coalition" ? " even against all the others playing together" : "";
      const whose = s.concept === "two-player" ? "[your hands],[opponent's hands]" : "[your hands], then the next players' in turn order";
      intro.textContent = `${who} can force a win${against} (${valueWords(s.startSeats[s.winnerSeat - 1].value, s.startSeats[s.winnerSeat - 1].remoteness)} from the start). After each of your moves, reach the first configuration of this list that you can (${whose})${s.winImmediately ? "; win at once when you can" : ""}. Checked against every defence (${s.positionsFaced} positions faced).`;
      for (const c of s.configurations) {
        const li = document.createElement("li");
        li.textContent = c;
        list.appendChild(li);
      }
    } else if (s.avoid.length === 0) {
      const each = s.startSeats.map((o, k) => `Player ${k + 1}: ${valueWords(o.value, o.remoteness)}`).join("; ");
      intro.textContent = s.concept === "coalition"
        ? `Nobody can force a win alone: against all the others playing together, every player loses (${each}).`
        : `Nobody can force a win from the start (${each}).`;
    } else {
      intro.textContent = `Nobody can force a win (the first player: ${valueWords(start.value, start.remoteness)}). Never leave your opponent${state.players > 2 ? "s" : ""} in one of these configurations ([your hands], then the others' in turn order):`;
      for (const a of s.avoid) {
        const li = document.createElement("li");
        li.textContent = `${a.configuration} (the next player wins in ${a.opponentWinsIn})`;
        list.appendChild(li);
      }
    }
    box.append(intro, list);
  } catch (error) {
    box.textContent = `Error: ${error.message}`;
  }
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
  $("position-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    newGame($("position-input").value.trim()).catch(showError);
  });
  $("preset").addEventListener("change", async () => {
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
    const action = { u: () => goTo(undoTarget()), r: () => goTo(redoTarget()), h: showHint, n: () => newGame().catch(showError) }[ev.key];
    if (action) action();
  });
}

async function main() {
  wire();
  try {
    const game = await getJSON(`${API}/`);
    for (const v of game.variants) {
      const o = document.createElement("option");
      o.value = v.id;
      o.textContent = `${v.id}: ${v.name}`;
      // The presets are the first word of an id; the list also has 3 and 4 players.
      if (!v.id.includes(".")) $("preset").appendChild(o);
    }
    const params = new URLSearchParams(location.search);
    await loadVariant(params.get("variant") || "standard", params.get("p"));
  } catch (error) {
    showError(error);
  }
}

main();
