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
  start: null, // start position text
  history: [], // {p, data, move, turn}: move is the API's move that led here
  cur: 0,
  selected: null, // {index, value} of the mover's selected hand
  hint: null, // text of the hinted move
  timer: null, // pending computer move
  pending: false, // a move waiting for the server's answer
  answers: new Map(), // position text -> API answer, per variant
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
    state.answers.set(key, await getJSON(positionURL(state.variant, p)));
  }
  return state.answers.get(key);
}

// ---------------------------------------------------------------- players

function humanSeats() {
  const mode = $("mode").value;
  if (mode === "humans") return [0, 1];
  return mode === "computer-first" ? [1] : [0];
}

function isHuman(turn) {
  return humanSeats().includes(turn);
}

function entry() {
  return state.history[state.cur];
}

function playerName(turn) {
  const who = $("mode").value === "humans" ? "" : isHuman(turn) ? " (you)" : " (computer)";
  return `Player ${turn + 1}${who}`;
}

function valueWords(value, remoteness) {
  if (value === "draw") return "draw";
  return `${value} in ${remoteness}`;
}

// The mover's outcome after a move: the child's value flipped, one ply more.
function moveWords(m) {
  if (m.moveValue === "draw") return "draw";
  return `${m.moveValue} in ${m.remoteness + 1}`;
}

function winnerOf(e) {
  // A finished position: its value is the mover's (lose in 0 in normal play).
  return e.data.positionValue === "win" ? e.turn : 1 - e.turn;
}

// ---------------------------------------------------------------- game flow

async function newGame(p = state.start, turn = 0) {
  cancelComputer();
  const data = await answer(p);
  state.history = [{ p: data.position, data, move: null, turn }];
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
  state.history.push({ p: data.position, data, move, turn: 1 - here.turn });
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
  if (!e || e.data.terminal || isHuman(e.turn) || state.cur !== state.history.length - 1) return;
  if (e.data.moves.length === 0) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    if (entry() === e) play(chooseComputerMove(e.data.moves)).catch(showError);
  }, COMPUTER_DELAY_MS);
  render();
}

function canGoBackTo(k) {
  return $("mode").value === "humans" || isHuman(state.history[k].turn);
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

// Hands per player (Player 1 first), each [{value, index}] for the mover's index.
function seats(e) {
  const [mover, other] = e.data.hands;
  return e.turn === 0 ? [mover, other] : [other, mover];
}

function interactive() {
  const e = entry();
  return !e.data.terminal && isHuman(e.turn) && state.timer === null && !state.pending;
}

function findMove(kind, from, to) {
  return entry().data.moves.find((m) =>
    m.detail.type === kind && m.detail.from === from && m.detail.to === to && (kind !== "tap" || m.detail.target === 1));
}

function clickHand(player, index, value) {
  if (!interactive()) return;
  const e = entry();
  const mine = player === e.turn;
  if (state.selected === null) {
    if (mine && value > 0) state.selected = { index, value };
  } else if (mine && index === state.selected.index) {
    state.selected = null;
  } else if (mine) {
    const m = value > 0 ? findMove("self-tap", state.selected.value, value) : undefined;
    if (m) return play(m).catch(showError);
    state.selected = value > 0 ? { index, value } : null;
  } else if (value > 0) {
    const m = findMove("tap", state.selected.value, value);
    if (m) return play(m).catch(showError);
  }
  render();
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function drawHand(svg, x, y, value, fingers, flip, opts) {
  const g = el("g", { class: "hand", transform: `translate(${x},${y})${flip ? " scale(1,-1)" : ""}` }, svg);
  if (value === 0) g.classList.add("dead");
  if (opts.selected) g.classList.add("selected");
  if (opts.target) g.classList.add("target");
  if (opts.clickable) {
    g.classList.add("clickable");
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
  }
  g.setAttribute("aria-label", `${opts.owner} hand with ${value === 0 ? "no fingers (dead)" : `${value} finger${value === 1 ? "" : "s"}`}`);
  g.dataset.player = opts.player;
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
  const label = el("text", { x: 0, y: 30, class: "count", transform: flip ? "scale(1,-1) translate(0,-52)" : "" }, g);
  label.textContent = value === 0 ? "✕" : String(value);
  const handler = () => clickHand(opts.player, opts.index, value);
  g.addEventListener("click", handler);
  g.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      handler();
    }
  });
  return g;
}

function drawBoard() {
  const svg = $("board");
  svg.replaceChildren();
  const e = entry();
  const fingers = state.rules.fingers;
  const [p1, p2] = seats(e);
  const live = interactive();
  const rows = [
    { player: 1, hands: p2, y: 82, flip: true },
    { player: 0, hands: p1, y: 200, flip: false },
  ];
  for (const row of rows) {
    const mover = row.player === e.turn;
    const text = el("text", { x: 8, y: row.flip ? 18 : 290, class: `seat${mover ? " to-move" : ""}` }, svg);
    text.textContent = `${playerName(row.player)}${mover && !e.data.terminal ? " — to move" : ""}`;
    const n = row.hands.length;
    row.hands.forEach((value, index) => {
      const x = 200 + (index - (n - 1) / 2) * Math.min(90, 360 / n);
      const selected = mover && state.selected !== null && state.selected.index === index;
      let target = false;
      if (state.selected !== null && value > 0 && !selected) {
        target = mover
          ? Boolean(findMove("self-tap", state.selected.value, value))
          : Boolean(findMove("tap", state.selected.value, value));
      }
      const clickable = live && (mover ? value > 0 : state.selected !== null && target);
      drawHand(svg, x, row.y, value, fingers, row.flip, {
        player: row.player, index, selected, target, clickable, owner: `Player ${row.player + 1}'s`,
      });
    });
  }
}

// ---------------------------------------------------------------- lists and text

function valueClass(value) {
  return { win: "win", lose: "lose", draw: "draw" }[value] || "unknown";
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
    b.textContent = show ? `${m.move} — ${moveWords(m)}` : m.move;
    b.title = `${m.kind}: to ${m.position}`;
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
    status.textContent = `Game over: Player ${winnerOf(e) + 1} wins.`;
    status.classList.add("over");
    return;
  }
  let text = `${playerName(e.turn)} to move`;
  if (show) {
    text += `: ${valueWords(e.data.positionValue, e.data.remoteness)}`;
    status.classList.add(valueClass(e.data.positionValue));
  }
  if (state.timer !== null) text += " — thinking…";
  if (state.hint) {
    const m = e.data.moves.find((x) => x.move === state.hint);
    text += `. Hint: ${state.hint}${m ? ` (${moveWords(m)})` : ""}`;
  }
  status.textContent = text;
}

function drawHistory() {
  const svg = $("history");
  svg.replaceChildren();
  const shown = state.history.slice(0, state.cur + 1);
  const e = entry();
  const rowH = 22;
  const top = 26;
  const height = top + (shown.length + 1) * rowH + 6;
  svg.setAttribute("viewBox", `0 0 400 ${height}`);
  let maxR = 5;
  for (const h of shown) if (h.data.positionValue !== "draw") maxR = Math.max(maxR, h.data.remoteness);
  for (const m of e.data.moves) if (m.positionValue !== "draw") maxR = Math.max(maxR, m.remoteness);
  const scale = 150 / maxR;
  // x of a position whose mover (turn) has this value at this remoteness.
  const xOf = (turn, value, r) => {
    if (value === "draw") return 200;
    const p1Wins = (value === "win") === (turn === 0);
    return p1Wins ? 30 + r * scale : 370 - r * scale;
  };
  for (const [x, label] of [[30, "P1 wins"], [200, "D"], [370, "P2 wins"]]) {
    const t = el("text", { x, y: 14, class: "axis" }, svg);
    t.textContent = label;
  }
  el("line", { x1: 200, y1: 18, x2: 200, y2: height, class: "centre" }, svg);
  const points = shown.map((h, k) => ({
    x: xOf(h.turn, h.data.positionValue, h.data.remoteness),
    y: top + k * rowH + rowH / 2,
    h,
    k,
  }));
  points.forEach((pt) => {
    el("rect", { x: 0, y: pt.y - rowH / 2, width: 400, height: rowH, class: `turn${pt.h.turn}` }, svg);
  });
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1];
    const b = points[k];
    el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `link ${valueClass(b.h.move.moveValue)}` }, svg);
  }
  for (const pt of points) {
    const c = el("circle", { cx: pt.x, cy: pt.y, r: 6, class: `dot ${valueClass(pt.h.data.positionValue)}` }, svg);
    const t = el("title", {}, c);
    t.textContent = `${pt.h.p}: ${playerName(pt.h.turn)}, ${valueWords(pt.h.data.positionValue, pt.h.data.remoteness)}${pt.h.move ? ` (after ${pt.h.move.move})` : ""}`;
    c.addEventListener("click", () => goTo(pt.k));
    const label = el("text", { x: 396, y: pt.y + 4, class: "move-name" }, svg);
    label.textContent = pt.h.move ? pt.h.move.move : "start";
  }
  // The next moves, as small dots in the row below; clicking one plays it.
  if (!e.data.terminal && interactive()) {
    const y = top + shown.length * rowH + rowH / 2;
    for (const m of e.data.moves) {
      const c = el("circle", { cx: xOf(1 - e.turn, m.positionValue, m.remoteness), cy: y, r: 4, class: `next ${valueClass(m.moveValue)}` }, svg);
      const t = el("title", {}, c);
      t.textContent = `${m.move}: ${moveWords(m)}`;
      c.addEventListener("click", () => play(m).catch(showError));
    }
  }
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
  if (e.turn === 1) params.set("turn", "2");
  const url = `/?${params}`;
  $("link").href = url;
  history.replaceState(null, "", url);
  $("position-input").value = e.p;
}

function render() {
  drawStatus();
  drawBoard();
  drawMoves();
  drawHistory();
  drawValue();
  updateLink();
  $("undo").disabled = undoTarget() === null;
  $("redo").disabled = redoTarget() === null;
  $("hint").disabled = !interactive();
  $("variant-line").textContent = `${state.rulesText} — variant ${state.variant}`;
}

function showError(error) {
  const status = $("status");
  status.textContent = `Error: ${error.message}`;
  status.className = "error";
}

// ---------------------------------------------------------------- rules

function fillRules(rules) {
  $("hands").value = rules.hands[0];
  $("fingers").value = rules.fingers;
  $("overflow").value = rules.overflow;
  for (const s of SWITCHES) $(s).checked = Boolean(rules[FIELD[s]]);
  // Older answers wrote a boolean.
  const pass = rules.pass_splits;
  $("pass-splits").value = pass === true ? "any" : pass === false || pass == null ? "off" : pass;
}

function variantFromForm() {
  const tokens = [$("preset").value, `h${$("hands").value}`, `f${$("fingers").value}`, $("overflow").value];
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
async function loadVariant(variant, p = null, turn = 0) {
  const info = await getJSON(`${API}/${encodeURIComponent(variant)}/`);
  if (info.refused) throw new Error(info.refused);
  const first = await getJSON(positionURL(info.id, p ?? info.startPosition));
  state.variant = info.id;
  state.rules = info.ruleset;
  state.rulesText = info.name;
  state.start = info.startPosition;
  state.answers.set(`${info.id} ${first.position}`, first);
  $("strategy").replaceChildren();
  fillRules(info.ruleset);
  const preset = info.id.split(".")[0];
  if ([...$("preset").options].some((o) => o.value === preset)) $("preset").value = preset;
  await newGame(first.position, turn);
}

async function showStrategy() {
  const box = $("strategy");
  box.textContent = "Working…";
  try {
    const s = await getJSON(`${API}/${encodeURIComponent(state.variant)}/strategy`);
    box.replaceChildren();
    const intro = document.createElement("p");
    const list = document.createElement("ol");
    if (s.winner) {
      intro.textContent = `The ${s.winner} player can force a win (${valueWords(s.startValue, s.startRemoteness)} for the first player). After each of your moves, reach the first configuration of this list that you can ([your hands],[opponent's hands])${s.winImmediately ? "; win at once when you can" : ""}. Checked against every defence (${s.positionsFaced} positions faced).`;
      for (const c of s.configurations) {
        const li = document.createElement("li");
        li.textContent = c;
        list.appendChild(li);
      }
    } else {
      intro.textContent = "Neither player can force a win: with best play the game never ends. Never leave your opponent in one of these configurations ([your hands],[opponent's hands]):";
      for (const a of s.avoid) {
        const li = document.createElement("li");
        li.textContent = `${a.configuration} (opponent wins in ${a.opponentWinsIn})`;
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
  $("mode").addEventListener("change", () => newGame().catch(showError));
  $("level").addEventListener("change", render);
  $("strategy-button").addEventListener("click", showStrategy);
  $("position-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    newGame($("position-input").value.trim(), 0).catch(showError);
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
      $("preset").appendChild(o);
    }
    const params = new URLSearchParams(location.search);
    const turn = params.get("turn") === "2" ? 1 : 0;
    await loadVariant(params.get("variant") || "standard", params.get("p"), turn);
  } catch (error) {
    showError(error);
  }
}

main();
