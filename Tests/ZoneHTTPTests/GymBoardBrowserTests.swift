import Foundation
import Testing
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// The gym board in a real browser: `zonestream broker` and `zonestream run` as processes,
/// Debian's headless chromium loading `/board`; tiles appear for live sessions, change colour
/// and zone as samples arrive, and go when a session ends.
///
/// The processor logs as JSON here, so the test also checks that every log line is a JSON
/// object with a level. `BOARD_SCREENSHOT_PATH=/tmp/board.png` keeps its screenshot; the
/// screenshots in docs/ are the wall-screen test's, of load-generator traffic.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct GymBoardBrowserTests {
    static let members = 36

    @Test func tilesAppearAndChangeZoneAsSamplesArrive() throws {
        try #require(HeadlessBrowser.executable != nil, "chromium is missing: scripts/bootstrap.sh installs it")
        let broker = try BrokerProcess(partitions: 2)
        defer { broker.stop() }
        let processor = try ZoneStreamProcess.processor(
            bootstrap: broker.bootstrapServers, group: "board",
            extra: ["--set", "http.board_interval_ms=200", "--set", "workers=2", "--set", "log_format=json"])
        defer { processor.signal(SIGTERM) }
        let port = try #require(processor.httpPort(), "no http endpoint: \(processor.output)")
        let traffic = GymTraffic(input: try TestInput(bootstrap: broker.bootstrapServers))
        let names = ["Ana", "Ben", "Chloé", "Dev", "Eli", "Femi", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"]
        for index in 0..<Self.members {
            let person = "\(names[index % names.count]) \(index / names.count + 1)"
            try traffic.startSession("board-\(index)", person: person)
            // A spread of zones, as in a real class: zone 1 to 5 by member.
            try traffic.heartRate("board-\(index)", at: 0, zone: index == 0 ? 1 : index % 5 + 1)
            try traffic.heartRate("board-\(index)", at: 30, zone: index == 0 ? 1 : index % 5 + 1)
        }
        try traffic.input.flush()

        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/board")
        let tilesShown = try browser.wait(
            seconds: 30, until: "document.querySelectorAll('.tile').length === \(Self.members)")
        #expect(
            tilesShown,
            "tiles: \(String(describing: try? browser.evaluate("document.querySelectorAll('.tile').length")))")
        let first = #"document.querySelector('.tile[data-session="board-0"]')"#
        #expect(try browser.evaluate("\(first).dataset.zone") as? String == "1")
        #expect(try browser.evaluate("\(first).querySelector('.name').textContent") as? String == "Ana 1")
        let colourBefore = try browser.evaluate("\(first).style.backgroundColor") as? String

        // Member 0 sprints: zone 1 to zone 5; the tile follows without a reload.
        try traffic.heartRate("board-0", at: 60, zone: 5)
        try traffic.heartRate("board-0", at: 65, zone: 5)
        try traffic.input.flush()
        #expect(try browser.wait(seconds: 20, until: "\(first).dataset.zone === '5'"))
        let colourAfter = try browser.evaluate("\(first).style.backgroundColor") as? String
        #expect(colourBefore != nil && colourAfter != nil && colourBefore != colourAfter)
        #expect(try browser.evaluate("\(first).querySelector('.value').textContent") as? String == "170bpm")
        // The others' sensors have been silent for 35 s of class time (over max_gap_ms): "no signal".
        #expect(
            try browser.wait(
                seconds: 10,
                until: #"document.querySelector('.tile[data-session="board-2"]').classList.contains('nosignal')"#))
        #expect(try browser.evaluate("\(first).classList.contains('nosignal')") as? Bool == false)
        #expect(try browser.evaluate("document.getElementById('clock').textContent") as? String == "class 1:05")
        // Minutes per zone: 20 s in zone 1 (each sample covers at most max_gap_ms, 10 s) → 0.3 min.
        #expect(try browser.evaluate("\(first).querySelector('.minutes-labels span').textContent") as? String == "0.3")

        // A finished session's tile goes.
        try traffic.endSession("board-1", at: 40)
        try traffic.input.flush()
        #expect(
            try browser.wait(
                seconds: 20, until: #"document.querySelector('.tile[data-session="board-1"]') === null"#))
        #expect(try browser.evaluate("document.getElementById('status').textContent") as? String == "live")

        let png = try browser.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        if let path = ProcessInfo.processInfo.environment["BOARD_SCREENSHOT_PATH"] {
            try png.write(to: URL(fileURLWithPath: path))
        }
        #expect(processor.signal(SIGTERM))
        let lines = processor.output.split(separator: "\n")
        #expect(lines.count > 3)
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] is String && object?["message"] is String, "not a JSON log line: \(line)")
        }
        #expect(lines.contains { $0.contains(#""message":"processor stopped""#) })
    }

    /// `/board?class=` after the class: no member of it is live, so the board shows the class's
    /// results (its latest day's leaderboard and compliance) until the next class starts.
    @Test func aFinishedClassShowsItsResults() throws {
        try #require(HeadlessBrowser.executable != nil, "chromium is missing: scripts/bootstrap.sh installs it")
        let broker = try BrokerProcess(partitions: 2)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let sessionClass = "studio-9/row-0630"
        let start = Int64(Date().timeIntervalSince1970 * 1000) - 600_000
        let plan =
            #"{"class":"\#(sessionClass)","start_ts":\#(start),"steps":[{"purpose":"work","duration_ms":300000,"target":{"heart_rate":{"min":110,"max":160}}}]}"#
        try input.send("class-plans", key: sessionClass, value: Array(plan.utf8))
        for (index, rate) in [120, 150, 170].enumerated() {
            let session = "rower-\(index)"
            func send(_ body: String, _ ts: Int64) throws {
                let text = #"{"session":"\#(session)","ts":\#(ts),\#(body)}"#
                try input.send("workout-events", key: session, value: Array(text.utf8))
            }
            try send(#""type":"session_start","person":"rower-\#(index)","class":"\#(sessionClass)""#, start)
            for second in stride(from: 0, to: 300, by: 10) {
                try send(#""type":"sample","quantity":"heart_rate","value":\#(rate)"#, start + Int64(second) * 1000)
            }
            try send(#""type":"session_end""#, start + 300_000)
        }
        try input.flush()
        let processor = try ZoneStreamProcess.processor(bootstrap: broker.bootstrapServers, group: "results")
        defer { processor.signal(SIGTERM) }
        let port = try #require(processor.httpPort(), "no http endpoint: \(processor.output)")
        let browser = try HeadlessBrowser(width: 1920, height: 1080)
        try browser.open(
            "http://127.0.0.1:\(port)/board?class=\(sessionClass.replacingOccurrences(of: "/", with: "%2F"))")
        #expect(
            try browser.wait(
                seconds: 30,
                until: "document.querySelectorAll('#results:not([hidden]) li').length === 3"),
            "results: \(String(describing: try? browser.evaluate("document.getElementById('results').outerHTML")))")
        let totals = try browser.evaluate("document.querySelector('#results .totals').textContent") as? String ?? ""
        #expect(totals.contains("3 workouts") && totals.contains("% in target"), "\(totals)")
        let png = try browser.screenshot()
        if let directory = ProcessInfo.processInfo.environment["BOARD_SCREENSHOT_DIRECTORY"] {
            try png.write(to: URL(fileURLWithPath: directory).appendingPathComponent("board-results.png"))
        }
    }

    /// A wall screen cannot scroll: at 1920x1080 with 20, 80 and 200 members, and at 3840x2160
    /// with 200, every tile is on screen and the page has no scrollbar. The members are the load
    /// generator's class (heart rate and power, profiles with ages, app zones, a multisport
    /// member), 100 seconds in, so the screenshots show a real class with percent of max.
    /// `BOARD_SCREENSHOT_DIRECTORY=docs` keeps the screenshots (docs/board-20.png, ...).
    @Test(arguments: [(20, 1920), (80, 1920), (200, 1920), (200, 3840)])
    func everyTileFitsAWallScreen(members: Int, width: Int) throws {
        try #require(HeadlessBrowser.executable != nil, "chromium is missing: scripts/bootstrap.sh installs it")
        let broker = try BrokerProcess(partitions: 2)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let classSeconds = 100
        var plan = TrafficPlan()
        plan.members = members
        plan.sessionSeconds = 300
        plan.sessionPrefix = "wall"
        plan.startMs = Int64(Date().timeIntervalSince1970 * 1000) - Int64(classSeconds) * 1000
        var generator = LoadGenerator(plan: plan)
        // Profiles and the classes' plans first: the processor reads them before it starts on the
        // sessions, which follow the coach's intervals.
        for record in generator.profiles(topic: "zone-profiles") + generator.classPlans(topic: "class-plans") {
            try input.send(record.topic, key: record.key, value: Array(record.value.utf8))
        }
        try input.flush()
        let processor = try ZoneStreamProcess.processor(
            bootstrap: broker.bootstrapServers, group: "wall", extra: ["--set", "http.board_interval_ms=200"])
        defer { processor.signal(SIGTERM) }
        let port = try #require(processor.httpPort(), "no http endpoint: \(processor.output)")
        for _ in 0..<classSeconds {
            for record in generator.nextSecond(topic: "workout-events") {
                try input.send(record.topic, key: record.key, value: Array(record.value.utf8))
            }
        }
        try input.flush()
        let browser = try HeadlessBrowser(width: width, height: width * 9 / 16)
        try browser.open("http://127.0.0.1:\(port)/board?sort=zone")
        #expect(try browser.wait(seconds: 30, until: "document.querySelectorAll('.tile').length === \(members)"))
        // Every sample is in: the class clock reads the class's 100 s.
        #expect(
            try browser.wait(seconds: 20, until: "document.getElementById('clock').textContent === 'class 1:39'"),
            "clock: \(String(describing: try? browser.evaluate("document.getElementById('clock').textContent")))")
        // ?sort=zone: the highest zones first.
        let zones = "[...document.querySelectorAll('.tile')].map(t => Number(t.dataset.zone))"
        #expect(
            try browser.evaluate("\(zones).every((zone, i, all) => i === 0 || all[i - 1] >= zone)") as? Bool == true)
        // Members with a profile show percent of max heart rate (age-based here); those without do not.
        let percents =
            "[...document.querySelectorAll('.tile .percent')].filter(p => /^\\d+%$/.test(p.textContent)).length"
        let withProfile = generator.profiles(topic: "zone-profiles").count
        #expect(
            try browser.wait(seconds: 10, until: "\(percents) === \(withProfile)"),
            "tiles with percent: \(String(describing: try? browser.evaluate(percents))) of \(withProfile)")
        _ = try browser.wait(seconds: 1, until: "false")  // one more frame for the layout
        let noScrollbar =
            "document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollWidth <= window.innerWidth"
        #expect(try browser.evaluate(noScrollbar) as? Bool == true)
        let allOnScreen =
            "[...document.querySelectorAll('.tile')].every(t => { const r = t.getBoundingClientRect(); "
            + "return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5 && r.height >= 20; })"
        #expect(try browser.evaluate(allOnScreen) as? Bool == true)
        // Percent of max is not cut off, however small the tiles.
        let percentInside =
            "[...document.querySelectorAll('.tile')].every(t => { const p = t.querySelector('.percent').getBoundingClientRect(); "
            + "const r = t.getBoundingClientRect(); return p.width === 0 || p.right <= r.right + 0.5; })"
        #expect(try browser.evaluate(percentInside) as? Bool == true)
        // Legible from across the room: every shown name, zone and effort at least 14 px and the
        // value 22 px, each shown whole (its box as high as its text, inside its tile).
        let shown = { (selector: String) in
            "[...document.querySelectorAll('\(selector)')].filter(e => getComputedStyle(e).display !== 'none' && e.textContent.trim())"
        }
        for (selector, minimum) in [
            (".tile .name", 14.0), (".tile .zone", 14.0), (".tile .effort", 14.0), (".tile .value", 22.0),
        ] {
            let size = try browser.evaluate(
                "Math.min(1000, ...\(shown(selector)).map(e => parseFloat(getComputedStyle(e).fontSize)))")
            #expect(
                (size as? Double ?? 0) >= minimum,
                "\(selector): \(String(describing: size)) px, \(members) members at \(width) px")
            let whole =
                "\(shown(selector)).every(e => { const r = e.getBoundingClientRect(), t = e.closest('.tile').getBoundingClientRect(); "
                + "return r.height >= 0.9 * parseFloat(getComputedStyle(e).fontSize) && r.bottom <= t.bottom + 0.5; })"
            #expect(
                try browser.evaluate(whole) as? Bool == true,
                "\(selector) cut off with \(members) members at \(width) px")
        }
        // Members with a profile show their display name and their points so far (and calories
        // where the tiles are large enough).
        let named = "[...document.querySelectorAll('.tile .name')].filter(n => / [A-Z]\\.$/.test(n.textContent)).length"
        #expect(try browser.evaluate(named) as? Int == withProfile, "named tiles")
        let points =
            "[...document.querySelectorAll('.tile .effort')].filter(e => /^\\d+\\.\\d pts · \\d+ kcal$/.test(e.title)).length"
        #expect(try browser.evaluate(points) as? Int == withProfile, "tiles with points and calories")
        // Following the plan: 100 s into the 300 s class is the second interval's recovery (zones
        // 2-3), so every tile shows its target and where it stands, and the header the step.
        let targets =
            "[...document.querySelectorAll('.tile')].filter(t => ['in','below','above'].includes(t.dataset.target) && /target/.test(t.querySelector('.target').textContent)).length"
        #expect(
            try browser.wait(seconds: 10, until: "\(targets) === \(members)"),
            "tiles with a target: \(String(describing: try? browser.evaluate(targets))) of \(members)")
        let header = try browser.evaluate("document.getElementById('step').textContent") as? String ?? ""
        #expect(header == "recovery · step 3 of 9 · 0:01 left", "\(header)")
        let marked =
            "[...document.querySelectorAll('.tile')].filter(t => t.querySelectorAll('.minutes div.target').length === 2)"
            + ".length"
        #expect(try browser.evaluate(marked) as? Int == members, "zone targets marked on the bars")
        for (selector, minimum) in [(".tile .target", 14.0)] {
            let size = try browser.evaluate(
                "Math.min(1000, ...\(shown(selector)).map(e => parseFloat(getComputedStyle(e).fontSize)))")
            #expect((size as? Double ?? 0) >= minimum, "\(selector): \(String(describing: size)) px")
        }
        // The legend shows all nine zone colours.
        #expect(try browser.evaluate("document.querySelectorAll('#legend span').length") as? Int == 9)
        let png = try browser.screenshot()
        if let directory = ProcessInfo.processInfo.environment["BOARD_SCREENSHOT_DIRECTORY"] {
            try png.write(
                to: URL(fileURLWithPath: directory).appendingPathComponent(
                    width == 1920 ? "board-\(members).png" : "board-\(members)-\(width).png"))
        }
    }
}
