/// The live gym board: one page, no dependencies, served by ``OperatorEndpoint``.
///
/// One tile per live session in the colour of its current zone (heart rate when the session
/// has heart-rate zones, else power), with the member's name (or the session id), the current
/// value, the zone and the minutes spent in each zone so far. It follows `board/events`
/// (server-sent events, changes only) and updates tiles in place, so a wall screen of a gym
/// with hundreds of members stays smooth; tiles shrink as the board fills up.
/// `?prefix=` shows only sessions whose id or person starts with it.
enum BoardPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ZoneStream gym board</title>
<style>
  :root { color-scheme: dark; --gap: 10px; }
  * { box-sizing: border-box; }
  body { margin: 0; font-family: system-ui, "DejaVu Sans", sans-serif; background: #111417; color: #f4f6f8; }
  header { display: flex; align-items: baseline; gap: 18px; padding: 12px 18px; background: #1b2026; }
  header h1 { margin: 0; font-size: 22px; letter-spacing: 0.5px; }
  header .status { font-size: 14px; color: #9aa5b1; }
  header .status.live::before { content: "\25CF "; color: #4caf50; }
  header .status.down::before { content: "\25CF "; color: #e53935; }
  #legend { margin-left: auto; display: flex; gap: 6px; font-size: 12px; }
  #legend span { padding: 2px 8px; border-radius: 10px; color: #fff; }
  #board { display: grid; gap: var(--gap); padding: var(--gap);
           grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); }
  #board.dense { --gap: 6px; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); }
  #board.dense .minutes, #board.dense .activity { display: none; }
  #empty { padding: 40px; text-align: center; color: #9aa5b1; font-size: 18px; }
  .tile { border-radius: 10px; padding: 10px 12px; background: #455a64; color: #fff;
          transition: background-color 0.6s ease; min-height: 96px; overflow: hidden; }
  .tile .name { font-weight: 600; font-size: 16px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .tile .activity { font-size: 11px; opacity: 0.8; text-transform: capitalize; }
  .tile .value { font-size: 30px; font-weight: 700; line-height: 1.15; }
  .tile .value small { font-size: 13px; font-weight: 500; opacity: 0.85; margin-left: 3px; }
  .tile .zone { font-size: 13px; font-weight: 600; }
  .tile .other { font-size: 12px; opacity: 0.85; }
  .tile.paused { opacity: 0.55; }
  .minutes { display: flex; gap: 2px; margin-top: 6px; align-items: flex-end; height: 30px; }
  .minutes div { flex: 1; background: rgba(255,255,255,0.35); border-radius: 2px 2px 0 0; min-height: 2px;
                 position: relative; }
  .minutes div.current { background: rgba(255,255,255,0.9); }
  .minutes-labels { display: flex; gap: 2px; font-size: 9px; opacity: 0.85; }
  .minutes-labels span { flex: 1; text-align: center; }
</style>
</head>
<body>
<header>
  <h1>ZoneStream</h1>
  <span id="status" class="status">connecting…</span>
  <span id="count" class="status"></span>
  <div id="legend"></div>
</header>
<div id="empty">Waiting for live sessions…</div>
<main id="board"></main>
<script>
"use strict";
const board = document.getElementById("board");
const tiles = new Map();
const units = { heart_rate: "bpm", cycling_power: "W" };

// Zone 1 of n is blue, the top zone red, in between through green and yellow.
function zoneColour(index, count) {
  if (!index || !count) return "#455a64";
  const hue = count <= 1 ? 210 : 210 - (210 * (index - 1)) / (count - 1);
  return `hsl(${Math.round(hue)}, 70%, ${index === count ? 42 : 38}%)`;
}

function legend() {
  const element = document.getElementById("legend");
  for (let zone = 1; zone <= 5; zone++) {
    const span = document.createElement("span");
    span.textContent = "Z" + zone;
    span.style.background = zoneColour(zone, 5);
    element.appendChild(span);
  }
}

// The quantity a tile shows: heart rate when it has zones, else power with zones, else any.
function primaryGroup(session) {
  const groups = session.zone_groups || {};
  for (const name of ["heart_rate", "cycling_power"]) {
    if (groups[name] && groups[name].configuration) return [name, groups[name]];
  }
  for (const name of ["heart_rate", "cycling_power"]) {
    if (groups[name]) return [name, groups[name]];
  }
  return [null, null];
}

function formatValue(value) {
  if (value === null || value === undefined) return "–";
  return Math.round(value).toString();
}

function makeTile(id) {
  const tile = document.createElement("div");
  tile.className = "tile";
  tile.dataset.session = id;
  tile.innerHTML = '<div class="name"></div><div class="activity"></div>' +
    '<div class="value"></div><div class="zone"></div><div class="other"></div>' +
    '<div class="minutes"></div><div class="minutes-labels"></div>';
  return tile;
}

function label(session) { return session.person || session.session; }

function insertSorted(tile, name) {
  tile.dataset.sort = name.toLowerCase();
  for (const other of board.children) {
    if (other.dataset.sort > tile.dataset.sort) { board.insertBefore(tile, other); return; }
  }
  board.appendChild(tile);
}

function render(session) {
  let tile = tiles.get(session.session);
  if (!tile) {
    tile = makeTile(session.session);
    tiles.set(session.session, tile);
    insertSorted(tile, label(session));
  }
  const [quantity, group] = primaryGroup(session);
  const zones = group && group.zone_durations ? group.zone_durations : [];
  const current = group && group.current_zone ? group.current_zone.index : 0;
  tile.dataset.zone = current;
  tile.dataset.quantity = quantity || "";
  tile.style.backgroundColor = zoneColour(current, zones.length);
  tile.classList.toggle("paused", !!session.paused);
  tile.querySelector(".name").textContent = label(session);
  tile.querySelector(".name").title = session.session;
  tile.querySelector(".activity").textContent = session.paused ? "paused" : session.activity;
  tile.querySelector(".value").innerHTML = "";
  tile.querySelector(".value").append(formatValue(group && group.current_value));
  const unit = document.createElement("small");
  unit.textContent = quantity ? units[quantity] : "";
  tile.querySelector(".value").append(unit);
  tile.querySelector(".zone").textContent = current ? `Zone ${current} of ${zones.length}` : "no zone yet";
  const others = Object.entries(session.zone_groups || {}).filter(([name]) => name !== quantity);
  tile.querySelector(".other").textContent = others
    .map(([name, other]) => `${formatValue(other.current_value)} ${units[name]}` +
      (other.current_zone ? ` · Z${other.current_zone.index}` : "")).join("  ");
  const minutes = tile.querySelector(".minutes");
  const labels = tile.querySelector(".minutes-labels");
  const most = Math.max(1, ...zones.map(zone => zone.duration_ms));
  minutes.replaceChildren(...zones.map(zone => {
    const bar = document.createElement("div");
    bar.style.height = `${Math.max(6, (100 * zone.duration_ms) / most)}%`;
    bar.className = zone.index === current ? "current" : "";
    bar.title = `Zone ${zone.index}: ${(zone.duration_ms / 60000).toFixed(1)} min`;
    return bar;
  }));
  labels.replaceChildren(...zones.map(zone => {
    const text = document.createElement("span");
    text.textContent = (zone.duration_ms / 60000).toFixed(1);
    return text;
  }));
}

function update(message) {
  for (const id of message.removed) {
    const tile = tiles.get(id);
    if (tile) { tile.remove(); tiles.delete(id); }
  }
  for (const session of message.sessions) render(session);
  board.classList.toggle("dense", tiles.size > 60);
  document.getElementById("empty").style.display = tiles.size ? "none" : "block";
  document.getElementById("count").textContent = `${tiles.size} live`;
}

function connect() {
  const source = new EventSource("board/events" + location.search);
  const status = document.getElementById("status");
  source.onopen = () => { status.textContent = "live"; status.className = "status live"; };
  source.onmessage = event => update(JSON.parse(event.data));
  source.onerror = () => {
    status.textContent = "reconnecting…"; status.className = "status down";
    // A new connection starts with the whole board: forget the tiles shown.
    for (const tile of tiles.values()) tile.remove();
    tiles.clear();
  };
}

legend();
connect();
</script>
</body>
</html>
"""#
}
