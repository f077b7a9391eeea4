/// The live gym board: one page, no dependencies, served by ``OperatorEndpoint``.
///
/// One tile per live session in the colour of its current zone (heart rate when the session
/// has heart-rate zones, else power), with the member's name (or the session id), the current
/// value, its percentage of what the member's zones are computed from (heart-rate reserve for Karvonen zones, max heart rate, FTP for power) where the profile gives it, the zone and the minutes spent in each zone so far. It follows `board/events`
/// (server-sent events, changes only) and updates tiles in place, so a wall screen of a gym
/// with hundreds of members stays smooth. Tiles size themselves to the count so the whole
/// board fits the screen without scrolling, and each zone index has one fixed colour in every
/// configuration (a colour-blind-safe palette, Okabe-Ito based), with a legend for all nine.
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
          :root { color-scheme: dark; --gap: 10px; --scale: 1; }
          html, body { height: 100%; }
          * { box-sizing: border-box; }
          body { margin: 0; font-family: system-ui, "DejaVu Sans", sans-serif; background: #111417; color: #f4f6f8; }
          header { display: flex; align-items: baseline; gap: 18px; padding: 12px 18px; background: #1b2026; }
          header h1 { margin: 0; font-size: 22px; letter-spacing: 0.5px; }
          header .status { font-size: 14px; color: #9aa5b1; }
          header .class { font-size: 22px; font-weight: 700; }
          header .status.live::before { content: "\25CF "; color: #4caf50; }
          header .status.down::before { content: "\25CF "; color: #e53935; }
          #legend { margin-left: auto; display: flex; gap: 6px; font-size: 12px; }
          #legend span { padding: 2px 8px; border-radius: 10px; color: #fff; }
          body { display: flex; flex-direction: column; overflow: hidden; }
          #board { flex: 1; min-height: 0; display: grid; gap: var(--gap); padding: var(--gap);
                   grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); align-content: start; }
          #board.dense .minutes, #board.dense .minutes-labels, #board.dense .activity, #board.dense .other,
          #board.dense .zone, #board.dense .effort .rest { display: none; }
          /* The lines a tile keeps never give up their height to the others. */
          .tile .name, .tile .reading, .tile .zone, .tile .effort { flex-shrink: 0; }
          /* Legible from across the room: however small the tiles, names, effort and zone are at least
             14 px and the value 22 px (the board's minimum sizes, checked by the browser test). */
          #board.dense .tile .name { font-size: max(14px, calc(var(--scale) * 13px)); }
          /* Small tiles keep percent of max beside the value and drop the unit instead. */
          #board.dense .tile .value small { display: none; }
          #board.dense .tile .percent { font-size: max(14px, calc(var(--scale) * 14px)); flex-shrink: 0; }
          #board.dense .tile .value { font-size: max(22px, calc(var(--scale) * 28px)); line-height: 1.05; }
          #board.dense .tile { padding: calc(var(--scale) * 6px) calc(var(--scale) * 8px); }
          #empty { padding: 40px; text-align: center; color: #9aa5b1; font-size: 18px; }
          /* A column: the minute bars take what height is left, so their labels are never cut off. */
          .tile { display: flex; flex-direction: column; border-radius: 10px; padding: calc(var(--scale) * 8px) calc(var(--scale) * 12px); background: #455a64; color: #fff;
                  transition: background-color 0.6s ease; overflow: hidden; min-width: 0; min-height: 0; }
          .tile.light { color: #111; }
          .tile .name { font-weight: 700; font-size: max(14px, calc(var(--scale) * 18px)); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
          .tile .activity { font-size: calc(var(--scale) * 11px); opacity: 0.8; text-transform: capitalize; }
          .tile .value { font-size: max(22px, calc(var(--scale) * 32px)); font-weight: 700; line-height: 1.15; }
          .tile .reading { display: flex; align-items: baseline; justify-content: space-between; gap: 4px; white-space: nowrap; }
          .tile .percent { font-size: calc(var(--scale) * 24px); font-weight: 700; opacity: 0.95; }
          /* What the percentage is of (max, HRR, FTP): the basis the member's zones come from. */
          .tile .basis { font-size: calc(var(--scale) * 14px); font-weight: 600; opacity: 0.85; margin-left: 0.2em; }
          #board.dense .tile .basis { display: none; }
          .tile .value small { font-size: calc(var(--scale) * 13px); font-weight: 500; opacity: 0.85; margin-left: 3px; }
          .tile .zone { font-size: max(14px, calc(var(--scale) * 14px)); font-weight: 600; }
          .tile .other { font-size: calc(var(--scale) * 12px); opacity: 0.85; }
          .tile .effort { font-size: max(14px, calc(var(--scale) * 14px)); font-weight: 600; white-space: nowrap; }
          .tile.paused { opacity: 0.55; }
          .tile.nosignal { background: repeating-linear-gradient(135deg, #2b3138 0 12px, #363d45 12px 24px) !important; color: #cfd8dc; }
          .tile.nosignal .zone::after { content: " · no signal"; }
          /* A member's target in the plan's current step: legible from across the room, with the
             zones of a zone target outlined on the bars. */
          .tile .target { font-size: max(14px, calc(var(--scale) * 15px)); font-weight: 800; white-space: nowrap;
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
          #step { font-weight: 700; }
          /* A finished class's results, until its next class starts: large enough for the room. */
          #results { padding: 24px 48px; font-size: 28px; }
          #results h2 { font-size: 40px; margin: 0 0 8px; }
          #results .totals { opacity: 0.85; margin: 0 0 16px; }
          #results ol { margin: 0; padding-left: 1.6em; line-height: 1.5; }
          #results li span { opacity: 0.8; margin-left: 0.6em; }
          .minutes { display: flex; gap: 2px; margin-top: 4px; align-items: flex-end; flex: 1 1 auto; min-height: 3px;
                     max-height: calc(var(--scale) * 26px); }
          .minutes div { flex: 1; background: rgba(255,255,255,0.35); border-radius: 2px 2px 0 0; min-height: 2px;
                         position: relative; }
          .minutes div.current { background: rgba(255,255,255,0.9); }
          .minutes-labels { display: flex; flex-shrink: 0; gap: 2px; font-size: calc(var(--scale) * 10px); opacity: 0.9; }
          .minutes-labels span { flex: 1; text-align: center; }
        </style>
        </head>
        <body>
        <header>
          <h1>ZoneStream</h1>
          <span id="class" class="class"></span>
          <span id="step" class="status"></span>
          <span id="status" class="status">connecting…</span>
          <span id="count" class="status"></span>
          <span id="clock" class="status"></span>
          <div id="legend"></div>
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
