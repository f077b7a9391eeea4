extension BoardPage {
    /// The first part of the board's script: the zone colours and legend, and the tiles, made
    /// and sized so that every one fits the screen.
    static let tileScript = #"""
        "use strict";
        const board = document.getElementById("board");
        const tiles = new Map();
        const units = { heart_rate: "bpm", cycling_power: "W" };

        // One fixed colour per zone index, whatever the configuration's zone count (zone 4 is the
        // same orange in a 5-zone and a 6-zone configuration): a colour-blind-safe palette (Okabe-Ito,
        // extended to nine), light colours with dark text.
        const zonePalette = ["#5f6b78", "#0072b2", "#009e73", "#f0e442", "#e69f00", "#d55e00", "#cc79a7", "#8e2c90", "#5b1a3a"];
        const lightZones = new Set([4, 5, 7]);
        function zoneColour(index) {
          return index >= 1 && index <= zonePalette.length ? zonePalette[index - 1] : "#455a64";
        }

        // The legend: the zones of the tiles on the board (up to the largest zone count among
        // them), and what the white outline of a tile off its target means.
        let legendZones = -1;
        function legend(zoneCount, offTarget) {
          const key = zoneCount * 2 + (offTarget ? 1 : 0);
          if (key === legendZones) return;
          legendZones = key;
          const spans = [];
          for (let zone = 1; zone <= Math.min(zoneCount, zonePalette.length); zone++) {
            const span = document.createElement("span");
            span.textContent = "Z" + zone;
            span.style.background = zoneColour(zone);
            if (lightZones.has(zone)) span.style.color = "#111";
            spans.push(span);
          }
          if (offTarget) {
            const span = document.createElement("span");
            span.className = "off";
            span.textContent = "▼▲ off target";
            spans.push(span);
          }
          document.getElementById("legend").replaceChildren(...spans);
        }

        // Sizes the tiles so every one fits the screen: the column count that gives the largest tiles
        // (about 1.6 times as wide as high), text scaled with the tile; the detail rows go when small.
        // Fits the tiles to the screen, then shrinks their text until no tile's content is cut
        // off: a tenth at a time down to 60% of the size the tile's height gives, then the dense
        // layout. The header's class lines scale with the tiles and so take their height from
        // the board: each layout is done twice. What was found is kept until the tile count,
        // the screen or the header's lines change.
        let fitted = { key: "", shrink: 1, dense: false };
        function fit() {
          const key = `${tiles.size}:${window.innerWidth}x${window.innerHeight}:${document.getElementById("steps").childElementCount}`;
          if (key !== fitted.key) fitted = { key, shrink: 1, dense: false };
          for (let pass = 0; pass < 12; pass++) {
            layout();
            layout();
            if (![...tiles.values()].some(tile => tile.scrollHeight > tile.clientHeight + 1)) return;
            if (fitted.shrink > 0.6) fitted.shrink *= 0.9;
            else if (!fitted.dense) fitted = { key, shrink: 1, dense: true };
            else return;
          }
        }
        function layout() {
          const count = Math.max(1, tiles.size);
          const gap = count > 60 ? 6 : 10;
          const width = board.clientWidth - 2 * gap, height = board.clientHeight - 2 * gap;
          let best = { columns: 1, tileWidth: 0, tileHeight: 0, size: 0 };
          for (let columns = 1; columns <= count; columns++) {
            const rows = Math.ceil(count / columns);
            const tileWidth = (width - (columns - 1) * gap) / columns;
            const tileHeight = Math.min((height - (rows - 1) * gap) / rows, tileWidth / 1.2);
            const size = Math.min(tileWidth, tileHeight * 1.6);
            if (size > best.size) best = { columns, tileWidth, tileHeight, size };
          }
          board.style.setProperty("--gap", `${gap}px`);
          board.style.gridTemplateColumns = `repeat(${best.columns}, minmax(0, 1fr))`;
          board.style.gridAutoRows = `${Math.max(20, Math.floor(best.tileHeight))}px`;
          // Small tiles drop their detail rows, so what is left (name, value, zone) can be larger.
          // Sizes are of a 1920-pixel-wide screen, and grow with a wider one (a 4K screen's pixels
          // are half the size).
          const px = Math.max(1, window.innerWidth / 1920);
          document.documentElement.style.setProperty("--px", `${px}px`);
          const dense = fitted.dense || best.tileHeight < 110 * px;
          const scale = fitted.shrink * best.tileHeight / (dense ? 80 : 150);
          document.documentElement.style.setProperty("--scale", Math.max(0.45 * px, Math.min(3 * px, scale)).toFixed(3));
          board.classList.toggle("dense", dense);
        }
        window.addEventListener("resize", fit);

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
            '<div class="reading"><span class="value"></span><span class="percent"></span><span class="basis"></span></div><div class="zone"></div>' +
            '<div class="target"></div>' +
            '<div class="effort"><span class="first"></span><span class="rest"></span></div><div class="other"></div>' +
            '<div class="minutes"></div><div class="minutes-labels"></div>';
          return tile;
        }

        // The profile's display name, else the person's id, else the session id shortened to its
        // distinctive end.
        function label(session) {
          if (session.name) return session.name;
          if (session.person) return session.person;
          const id = session.session;
          return id.length <= 14 ? id : "…" + id.slice(-12);
        }

        // Natural order: digits compare as numbers, so gym1/0-4 comes before gym1/0-39.
        const natural = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
        """#
}
