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
        let processor = try ZoneStreamProcess.testProcessor(
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
    /// results (its latest day's leaderboard and time in target per quantity) until the next
    /// class starts, with the members' names where their profiles give them.
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
        for (person, name) in [("rower-0", "Rowan A."), ("rower-1", "Rosa B.")] {
            try input.send(
                "zone-profiles", key: person, value: Array(#"{"person":"\#(person)","name":"\#(name)"}"#.utf8))
        }
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
        let processor = try ZoneStreamProcess.testProcessor(bootstrap: broker.bootstrapServers, group: "results")
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
        #expect(
            totals.contains("3 workouts") && totals.contains("heart rate ") && totals.contains("% in target"),
            "\(totals)")
        let entries =
            try browser.evaluate("[...document.querySelectorAll('#results li')].map(li => li.textContent)") as? [String]
            ?? []
        for name in ["Rowan A.", "Rosa B.", "rower-2"] {
            #expect(entries.contains { $0.hasPrefix(name) }, "\(entries)")
        }
        #expect(entries.allSatisfy { $0.contains("heart rate ") && $0.hasSuffix("% in target") }, "\(entries)")
        let png = try browser.screenshot()
        if let directory = ProcessInfo.processInfo.environment["BOARD_SCREENSHOT_DIRECTORY"] {
            try png.write(to: URL(fileURLWithPath: directory).appendingPathComponent("board-results.png"))
        }
    }

    /// A wall screen cannot scroll, and is read from across the room: with 12, 30, 60 and 200
    /// members, each at 1920x1080 and at 3840x2160, every tile is on screen, the page has no
    /// scrollbar and no line of a tile is cut off. The members are the load generator's class
    /// (heart rate and power, app zones, a multisport member) 100 seconds in, half of their
    /// profiles with a resting rate (Karvonen zones, % of heart-rate reserve) and half without
    /// (% of max), side by side: no tile's number contradicts its zone.
    /// `BOARD_SCREENSHOT_DIRECTORY=docs` keeps the screenshots (docs/board-12.png, ...).
    @Test(arguments: [12, 30, 60, 200])
    func everyTileFitsAWallScreen(members: Int) throws {
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
        // sessions, which follow the coach's intervals. Every other profile has no resting rate.
        let profiles = generator.profiles(topic: "zone-profiles").enumerated().map { index, record in
            index % 2 == 0
                ? record.value
                : record.value.replacingOccurrences(of: #","resting_hr":\d+"#, with: "", options: .regularExpression)
        }
        for (record, value) in zip(generator.profiles(topic: "zone-profiles"), profiles) {
            try input.send(record.topic, key: record.key, value: Array(value.utf8))
        }
        for record in generator.classPlans(topic: "class-plans") {
            try input.send(record.topic, key: record.key, value: Array(record.value.utf8))
        }
        try input.flush()
        let processor = try ZoneStreamProcess.testProcessor(
            bootstrap: broker.bootstrapServers, group: "wall", extra: ["--set", "http.board_interval_ms=200"])
        defer { processor.signal(SIGTERM) }
        let port = try #require(processor.httpPort(), "no http endpoint: \(processor.output)")
        for _ in 0..<classSeconds {
            for record in generator.nextSecond(topic: "workout-events") {
                try input.send(record.topic, key: record.key, value: Array(record.value.utf8))
            }
        }
        try input.flush()
        let wall = WallScreen(members: members, withProfile: profiles.count, classes: generator.classNames)
        for width in [1920, 3840] {
            let browser = try HeadlessBrowser(width: width, height: width * 9 / 16)
            try browser.open("http://127.0.0.1:\(port)/board?sort=zone")
            try wall.check(browser, width: width)
            try BoardAgreement.check(browser, port: port)
            let png = try browser.screenshot()
            if let directory = ProcessInfo.processInfo.environment["BOARD_SCREENSHOT_DIRECTORY"],
                width == 1920 || members >= 60
            {
                try png.write(
                    to: URL(fileURLWithPath: directory).appendingPathComponent(
                        width == 1920 ? "board-\(members).png" : "board-\(members)-\(width).png"))
            }
        }
    }
}
