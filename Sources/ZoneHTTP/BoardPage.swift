/// The live gym board: one page, no dependencies, served by ``OperatorEndpoint``.
///
/// One tile per live session in the colour of its current zone (heart rate when the session
/// has heart-rate zones, else power), with the member's name (or the session id), the current
/// value, its percentage of what the member's zones are computed from (heart-rate reserve for Karvonen zones, max heart rate, FTP for power) where the profile gives it, the zone and the minutes spent in each zone so far. It follows `board/events`
/// (server-sent events, changes only) and updates tiles in place, so a wall screen of a gym
/// with hundreds of members stays smooth. Tiles size themselves to the count so the whole
/// board fits the screen without scrolling, and each zone index has one fixed colour in every
/// configuration (a colour-blind-safe palette, Okabe-Ito based), with a legend of the zones in
/// use and of the outline a tile off its target wears. The header has one line per class
/// following a plan: its step and the time left.
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
          :root { color-scheme: dark; --gap: 10px; --scale: 1; --px: 1px; }
          html, body { height: 100%; }
          * { box-sizing: border-box; }
          body { margin: 0; font-family: system-ui, "DejaVu Sans", sans-serif; background: #111417; color: #f4f6f8; }
          header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 18px; padding: 12px 18px; background: #1b2026; }
          header h1 { margin: 0; font-size: calc(var(--px) * 22); letter-spacing: 0.5px; }
          header .status { font-size: calc(var(--px) * 16); color: #9aa5b1; }
          header .class { font-size: calc(var(--px) * 22); font-weight: 700; }
          header .status.live::before { content: "\25CF "; color: #4caf50; }
          header .status.down::before { content: "\25CF "; color: #e53935; }
          #legend { margin-left: auto; display: flex; flex-wrap: wrap; gap: 6px; font-size: calc(var(--px) * 16); }
          #legend span { padding: 2px 10px; border-radius: 12px; color: #fff; }
          #legend .off { background: #455a64; box-shadow: inset 0 0 0 3px #fff; }
          /* One line per class that follows a plan: its step and time left, as large as a tile's
             zone label or larger. */
          #steps { display: flex; flex-direction: column; gap: 2px; flex-basis: 100%; order: 1; }
          #steps:empty { display: none; }
          #steps div { font-size: max(calc(var(--px) * 22), calc(var(--scale) * 14px)); font-weight: 700; color: #fff; }
          #steps b { color: #9aa5b1; margin-right: 0.6em; }
          body { display: flex; flex-direction: column; overflow: hidden; }
          #board { flex: 1; min-height: 0; display: grid; gap: var(--gap); padding: var(--gap);
                   grid-template-columns: repeat(auto-fill, minmax(calc(var(--px) * 190), 1fr)); align-content: start; }
          #board.dense .minutes, #board.dense .minutes-labels, #board.dense .activity, #board.dense .other,
          #board.dense .zone, #board.dense .effort .rest { display: none; }
          /* The lines a tile keeps never give up their height to the others. */
          .tile .name, .tile .reading, .tile .zone, .tile .effort { flex-shrink: 0; }
          /* Legible from across the room: however small the tiles, names, effort and zone are at least
             14 px and the value 22 px on a 1920-pixel-wide screen, and as much larger as the screen
             is wider (--px: a 1080p pixel; the board's minimum sizes, checked by the browser test). */
          #board.dense .tile .name { font-size: max(calc(var(--px) * 14), calc(var(--scale) * 13px)); }
          /* Small tiles keep percent of max beside the value and drop the unit instead. */
          #board.dense .tile .value small { display: none; }
          #board.dense .tile .percent { font-size: max(calc(var(--px) * 14), calc(var(--scale) * 14px)); flex-shrink: 0; }
          #board.dense .tile .value { font-size: max(calc(var(--px) * 22), calc(var(--scale) * 28px)); line-height: 1.05; }
          #board.dense .tile { padding: calc(var(--scale) * 6px) calc(var(--scale) * 8px); }
          #empty { padding: 40px; text-align: center; color: #9aa5b1; font-size: calc(var(--px) * 22); }
          /* A column: the minute bars take what height is left, so their labels are never cut off. */
          .tile { display: flex; flex-direction: column; border-radius: 10px; padding: calc(var(--scale) * 8px) calc(var(--scale) * 12px); background: #455a64; color: #fff;
                  transition: background-color 0.6s ease; overflow: hidden; min-width: 0; min-height: 0; }
          .tile.light { color: #111; }
          .tile .name { font-weight: 700; font-size: max(calc(var(--px) * 14), calc(var(--scale) * 18px)); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
          .tile .activity { font-size: calc(var(--scale) * 11px); opacity: 0.8; text-transform: capitalize; }
          .tile .value { font-size: max(calc(var(--px) * 22), calc(var(--scale) * 32px)); font-weight: 700; line-height: 1.15; }
          .tile .reading { display: flex; align-items: baseline; justify-content: space-between; gap: 4px; white-space: nowrap; }
          .tile .percent { font-size: calc(var(--scale) * 24px); font-weight: 700; opacity: 0.95; }
          /* What the percentage is of (max, HRR, FTP): the basis the member's zones come from. */
          .tile .basis { font-size: calc(var(--scale) * 14px); font-weight: 600; opacity: 0.85; margin-left: 0.2em; }
          /* Small tiles are a grid: the name across, the value with its percentage beside it, and
             under them the points with what the percentage is of (HRR, max, FTP). */
          #board.dense .tile { display: grid; grid-template-columns: minmax(0, 1fr) auto; align-content: start; column-gap: 4px; }
          #board.dense .tile .name { grid-column: 1 / 3; }
          #board.dense .tile .reading { display: contents; }
          #board.dense .tile .value { grid-column: 1; grid-row: 2; }
          #board.dense .tile .percent { grid-column: 2; grid-row: 2; align-self: end; text-align: right; }
          #board.dense .tile .effort { grid-column: 1; grid-row: 3; }
          #board.dense .tile .basis { grid-column: 2; grid-row: 3; text-align: right; margin-left: 0;
                                      font-size: max(calc(var(--px) * 12), calc(var(--scale) * 11px)); }
          .tile .value small { font-size: calc(var(--scale) * 13px); font-weight: 500; opacity: 0.85; margin-left: 3px; }
          .tile .zone { font-size: max(calc(var(--px) * 14), calc(var(--scale) * 14px)); font-weight: 600; }
          .tile .other { font-size: calc(var(--scale) * 12px); opacity: 0.85; }
          .tile .effort { font-size: max(calc(var(--px) * 14), calc(var(--scale) * 14px)); font-weight: 600; white-space: nowrap; }
          .tile.paused { opacity: 0.55; }
          .tile.nosignal { background: repeating-linear-gradient(135deg, #2b3138 0 12px, #363d45 12px 24px) !important; color: #cfd8dc; }
          .tile.nosignal .zone::after { content: " · no signal"; }
          /* A member's target in the plan's current step: legible from across the room, with the
             zones of a zone target outlined on the bars. */
          .tile .target { font-size: max(calc(var(--px) * 14), calc(var(--scale) * 15px)); font-weight: 800; white-space: nowrap;
                          overflow: hidden; text-overflow: ellipsis; flex-shrink: 0; }
          .tile .target:empty { display: none; }
          .tile[data-target="in"] .target::before { content: "● "; }
          .tile[data-target="below"] .target::before { content: "▼ "; }
          .tile[data-target="above"] .target::before { content: "▲ "; }
          .tile[data-target="below"], .tile[data-target="above"] { box-shadow: inset 0 0 0 calc(var(--scale) * 4px) #fff; }
          .minutes div.target { outline: 2px solid currentColor; outline-offset: 1px; }
          /* Small tiles keep the status as a sign before the name and the outline of a tile off its target. */
          #board.dense .tile .target { display: none; }
          #board.dense .tile[data-target="in"] .name::before { content: "● "; }
          #board.dense .tile[data-target="below"] .name::before { content: "▼ "; }
          #board.dense .tile[data-target="above"] .name::before { content: "▲ "; }
          /* A finished class's results, until its next class starts: large enough for the room. */
          #results { padding: 24px 48px; font-size: calc(var(--px) * 28); }
          #results h2 { font-size: calc(var(--px) * 40); margin: 0 0 8px; }
          #results .totals { opacity: 0.85; margin: 0 0 16px; }
          #results ol { margin: 0; padding-left: 1.6em; line-height: 1.5; }
          #results li span { opacity: 0.8; margin-left: 0.6em; }
          .minutes { display: flex; gap: 2px; margin-top: 4px; align-items: flex-end; flex: 1 1 auto; min-height: calc(var(--scale) * 12px);
                     max-height: calc(var(--scale) * 26px); }
          .minutes div { flex: 1; background: rgba(255,255,255,0.35); border-radius: 2px 2px 0 0; min-height: 2px;
                         position: relative; }
          .minutes div.current { background: rgba(255,255,255,0.9); }
          .minutes-labels { display: flex; flex-shrink: 0; gap: 2px; font-size: max(calc(var(--px) * 11), calc(var(--scale) * 11px)); opacity: 0.9; }
          .minutes-labels span { flex: 1; text-align: center; }
        </style>
        </head>
        <body>
        <header>
          <h1>ZoneStream</h1>
          <span id="class" class="class"></span>
          <span id="status" class="status">connecting…</span>
          <span id="count" class="status"></span>
          <span id="clock" class="status"></span>
          <div id="legend"></div>
          <div id="steps"></div>
        </header>
        <div id="empty">Waiting for live sessions…</div>
        <section id="results" hidden><h2></h2><p class="totals"></p><ol></ol></section>
        <main id="board"></main>
        <script>
        \#(tileScript)
        \#(script)</script>
        </body>
        </html>
        """#
}
