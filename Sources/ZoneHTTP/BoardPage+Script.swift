extension BoardPage {
    /// The board's script, after ``tileScript``: follows `board/events`, keeps the class clock
    /// and the "no signal" state, and sorts by zone or points on request (`?sort=zone`,
    /// `?sort=points`); ids and names are ordered naturally (`0-4` before `0-39`).
    static let script = #"""
        // Board options from the address: ?sort=zone puts the hardest-working first; ?max_gap_ms=N
        // is the processor's max_gap_ms (default 10000), after which a silent sensor shows "no signal".
        const options = new URLSearchParams(location.search);
        const sortBy = options.get("sort");
        const sortByZone = sortBy === "zone" || sortBy === "points";
        const classShown = options.get("class");
        if (classShown) document.getElementById("class").textContent = classShown;
        const maxGapMs = Number(options.get("max_gap_ms")) || 10000;
        const latest = new Map();
        const starts = new Map();

        // The class clock and the silent sensors, measured against the newest sample on the board
        // (not the wall clock, so a replayed class reads the same).
        function refreshTimes() {
          const newest = Math.max(0, ...latest.values());
          const earliest = Math.min(...starts.values());
          const clock = document.getElementById("clock");
          if (tiles.size && isFinite(earliest)) {
            const seconds = Math.max(0, Math.floor((newest - earliest) / 1000));
            clock.textContent = `class ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
          } else {
            clock.textContent = "";
          }
          for (const [id, tile] of tiles) {
            tile.classList.toggle("nosignal", !tile.classList.contains("paused") && newest - (latest.get(id) || newest) > maxGapMs);
          }
          refreshSteps(newest);
        }

        function sortTiles() {
          if (!sortByZone) return;
          const key = sortBy === "points" ? "points" : "zone";
          const ordered = [...tiles.values()].sort((a, b) =>
            (Number(b.dataset[key]) - Number(a.dataset[key])) || natural.compare(a.dataset.sort, b.dataset.sort));
          ordered.forEach(tile => board.appendChild(tile));
        }

        function insertSorted(tile, name) {
          tile.dataset.sort = name;
          for (const other of board.children) {
            if (natural.compare(other.dataset.sort, tile.dataset.sort) > 0) { board.insertBefore(tile, other); return; }
          }
          board.appendChild(tile);
        }

        // Effort so far: points and calories where counted, else the work in kJ. Small tiles keep the
        // first part only (the points), the rest is in the tile's tooltip.
        function effortParts(session) {
          const parts = [];
          if (session.points !== null && session.points !== undefined) parts.push(`${session.points.toFixed(1)} pts`);
          if (session.calories_kcal !== null && session.calories_kcal !== undefined) parts.push(`${session.calories_kcal} kcal`);
          if (!parts.length && session.kilojoules !== null && session.kilojoules !== undefined) parts.push(`${session.kilojoules.toFixed(1)} kJ`);
          return parts;
        }

        function render(session) {
          let tile = tiles.get(session.session);
          if (!tile) {
            tile = makeTile(session.session);
            tiles.set(session.session, tile);
            insertSorted(tile, label(session));
          }
          latest.set(session.session, session.latest_ts);
          starts.set(session.session, session.start_ts);
          const [quantity, group] = primaryGroup(session);
          const zones = group && group.zone_durations ? group.zone_durations : [];
          const current = group && group.current_zone ? group.current_zone.index : 0;
          tile.dataset.zone = current;
          tile.dataset.points = session.points || 0;
          const effort = effortParts(session);
          tile.querySelector(".effort .first").textContent = effort[0] || "";
          tile.querySelector(".effort .rest").textContent = effort.slice(1).map(part => ` · ${part}`).join("");
          tile.querySelector(".effort").title = effort.join(" · ");
          tile.dataset.quantity = quantity || "";
          tile.style.backgroundColor = zoneColour(current);
          tile.classList.toggle("light", lightZones.has(current));
          tile.classList.toggle("paused", !!session.paused);
          tile.querySelector(".name").textContent = label(session);
          tile.querySelector(".name").title = session.session;
          tile.querySelector(".activity").textContent = session.paused ? "paused" : session.activity;
          tile.querySelector(".value").innerHTML = "";
          tile.querySelector(".value").append(formatValue(group && group.current_value));
          const unit = document.createElement("small");
          unit.textContent = quantity ? units[quantity] : "";
          tile.querySelector(".value").append(unit);
          // The intensity the member's zones are computed from, labelled, so the number and the
          // zone never disagree: % of FTP on a power tile, % of heart-rate reserve for Karvonen
          // zones (a resting rate in the profile), else % of max heart rate.
          const percent = tile.querySelector(".percent");
          const known = (value) => value !== null && value !== undefined;
          const intensity = quantity === "cycling_power"
            ? (known(session.percent_ftp) ? [session.percent_ftp, "FTP", "of functional threshold power"] : null)
            : known(session.percent_hrr) ? [session.percent_hrr, "HRR", "of heart-rate reserve, which the zones are computed from"]
            : known(session.percent_max_hr) ? [session.percent_max_hr, "max", `of max heart rate ${Math.round(session.max_hr)} bpm`]
            : null;
          percent.textContent = intensity ? `${intensity[0]}%` : "";
          percent.title = intensity ? intensity[2] : "";
          const basis = tile.querySelector(".basis");
          basis.textContent = intensity ? intensity[1] : "";
          basis.title = percent.title;
          tile.querySelector(".zone").textContent = current ? `Zone ${current} of ${zones.length}` : "no zone yet";
          zoneCounts.set(session.session, zones.length);
          if (session.person && session.name) names.set(session.person, session.name);
          // The plan's current step: the member's target for the quantity shown and where they stand.
          const step = session.plan ? session.plan.step : null;
          const target = step && step.targets ? step.targets[quantity] : null;
          const status = session.plan && session.plan.status ? session.plan.status[quantity] : undefined;
          tile.dataset.target = target && status ? status : "";
          tile.querySelector(".target").textContent = target ? `${status ? statusWords[status] : "target"} ${describeTarget(target, quantity)}` : "";
          if (step && session.plan.source === "class" && session.class) showStep(session.class, step, session.plan);
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
            const inTarget = target && target.zones && zone.index >= target.zones[0] &&
              (zone.index <= target.zones[1] || (zone.index === zones.length && target.zones[1] > zones.length));
            bar.className = (zone.index === current ? "current" : "") + (inTarget ? " target" : "");
            bar.title = `Zone ${zone.index}: ${(zone.duration_ms / 60000).toFixed(1)} min`;
            return bar;
          }));
          labels.replaceChildren(...zones.map(zone => {
            const text = document.createElement("span");
            text.textContent = (zone.duration_ms / 60000).toFixed(1);
            return text;
          }));
        }

        const statusWords = { in: "in target", below: "below target", above: "above target" };
        const quantityWords = { heart_rate: "heart rate", cycling_power: "power" };
        const percentOf = ratio => ratio === null || ratio === undefined ? "–" : `${Math.round(ratio * 100)}%`;

        // A target as the coach said it: zones as a range, values with their unit.
        function describeTarget(target, quantity) {
          if (target.zones) return target.zones[0] === target.zones[1] ? `Z${target.zones[0]}` : `Z${target.zones[0]}–${target.zones[1]}`;
          const unit = units[quantity] || "";
          if (target.min !== undefined && target.max !== undefined) return `${target.min}–${target.max} ${unit}`;
          return target.min !== undefined ? `≥ ${target.min} ${unit}` : `< ${target.max} ${unit}`;
        }

        // The header: one line per class following its plan, with the step it is in (purpose,
        // number of steps, time left), measured against the newest sample on the board, as the
        // class clock is.
        const classSteps = new Map();
        function showStep(sessionClass, step, plan) {
          const shown = classSteps.get(sessionClass);
          if (!shown || step.start_ts >= shown.step.start_ts) classSteps.set(sessionClass, { step, plan });
        }
        function refreshSteps(newest) {
          const lines = [];
          for (const [sessionClass, shown] of [...classSteps].sort((a, b) => natural.compare(a[0], b[0]))) {
            if (!newest || newest >= shown.step.end_ts) continue;
            const left = Math.max(0, Math.ceil((shown.step.end_ts - newest) / 1000));
            const line = document.createElement("div");
            line.dataset.class = sessionClass;
            const name = document.createElement("b");
            name.textContent = sessionClass;
            if (!classShown) line.append(name);
            line.append(`${shown.step.purpose} · step ${shown.step.index} of ${shown.plan.steps} · ` +
              `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`);
            lines.push(line);
          }
          document.getElementById("steps").replaceChildren(...lines);
        }

        // Names of the persons seen on the board, for the class results.
        const names = new Map();
        const zoneCounts = new Map();
        function refreshLegend() {
          const offTarget = [...tiles.values()].some(tile => tile.dataset.target === "below" || tile.dataset.target === "above");
          legend(Math.max(0, ...zoneCounts.values()), offTarget);
        }

        function update(message) {
          for (const id of message.removed) {
            const tile = tiles.get(id);
            if (tile) { tile.remove(); tiles.delete(id); latest.delete(id); starts.delete(id); zoneCounts.delete(id); }
          }
          for (const session of message.sessions) render(session);
          document.getElementById("empty").style.display = tiles.size ? "none" : "block";
          refreshTimes();
          refreshLegend();
          sortTiles();
          fit();
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
            latest.clear();
            starts.clear();
            zoneCounts.clear();
            classSteps.clear();
          };
        }

        // With ?class=, the class's results (its latest day's summary: leaderboard and
        // compliance) when no member of it is live: after its plan ends, until the next class.
        async function refreshResults() {
          const panel = document.getElementById("results");
          if (!classShown) return;
          let results = null;
          try {
            const token = options.get("token");
            const address = "classes/" + encodeURIComponent(classShown) + (token ? "?token=" + encodeURIComponent(token) : "");
            const response = await fetch(address);
            if (response.ok) results = (await response.json()).results;
          } catch (error) { results = null; }
          panel.hidden = !(results && tiles.size === 0);
          if (panel.hidden) return;
          const compliance = Object.entries(results.compliance || {})
            .map(([quantity, ratio]) => `${quantityWords[quantity] || quantity} ${percentOf(ratio)} in target`);
          panel.querySelector("h2").textContent = `${results.class} · ${results.day}`;
          panel.querySelector(".totals").textContent =
            [`${results.workouts} workouts`, `${results.people} people`, `${results.points.toFixed(1)} pts`, ...compliance].join(" · ");
          panel.querySelector("ol").replaceChildren(...results.leaderboard.map(entry => {
            const item = document.createElement("li");
            item.textContent = entry.name || names.get(entry.person) || entry.person || entry.session;
            const detail = document.createElement("span");
            const parts = [];
            if (entry.points !== null) parts.push(`${entry.points.toFixed(1)} pts`);
            if (entry.calories_kcal !== null) parts.push(`${entry.calories_kcal} kcal`);
            // Time in target per quantity followed: heart rate and power each their own.
            const inTarget = Object.entries(entry.compliance || {}).filter(([, ratio]) => ratio !== null && ratio !== undefined)
              .map(([quantity, ratio]) => `${quantityWords[quantity] || quantity} ${percentOf(ratio)}`);
            if (inTarget.length) parts.push(`${inTarget.join(", ")} in target`);
            detail.textContent = parts.join(" · ");
            item.append(detail);
            return item;
          }));
          document.getElementById("empty").style.display = "none";
        }

        legend(0, false);
        connect();
        setInterval(refreshResults, 2000);
        """#
}
