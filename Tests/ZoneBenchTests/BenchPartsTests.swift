import Foundation
import Testing
import ZoneCodecs
import ZoneEngine

@testable import ZoneBench

/// The benchmark's parts on their own, without a broker.
@Suite struct BenchPartsTests {
    /// The board probe counts tiles and sees the end of the first board however the stream
    /// is cut into reads, counting each marker once.
    @Test(arguments: [1, 2, 3, 7, 13, 14, 64, 100_000])
    func probeFindsMarkersAcrossReads(readSize: Int) {
        let tile = #"{"session":"a","zone_groups":{"heart_rate":{}}}"#
        let stream =
            "HTTP/1.1 200 OK\r\n\r\nretry: 2000\n\n"
            + #"data: {"sessions":[\#(tile),\#(tile)],"removed":[],"more":true}"# + "\n\n"
            + #"data: {"sessions":[\#(tile)],"removed":[],"more":false}"# + "\n\n"
        let bytes = Array(stream.utf8)
        var scanner = BoardStreamProbe.Scanner()
        var tiles = 0
        var ends = 0
        var data = false
        var status: Int?
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + readSize)
            let seen = scanner.scan(bytes[offset..<end])
            tiles += seen.tiles
            if seen.end { ends += 1 }
            data = data || seen.data
            status = status ?? seen.status
            offset = end
        }
        #expect(tiles == 3)
        #expect(ends == 1)
        #expect(data)
        #expect(status == 200)
    }

    @Test func markerSearchSkipsNearMisses() {
        let window = Array(#""zone_groups""zone_groups":x"zone_group":"zone_groups":"#.utf8)
        #expect(BoardStreamProbe.Scanner.positions(BoardStreamProbe.tileMarker, in: window) == [13, 41])
        #expect(BoardStreamProbe.Scanner.positions(BoardStreamProbe.moreMarker, in: window).isEmpty)
    }

    /// An earlier build sent the first board as one message without `more`: it ends the board.
    @Test func aSingleMessageWithoutMoreIsAWholeBoard() {
        var scanner = BoardStreamProbe.Scanner()
        let stream = Array(
            ("HTTP/1.1 200 OK\r\n\r\nretry: 2000\n\n" + #"data: {"sessions":[{"zone_groups":{}}],"removed":[]}"#
                + "\n\n").utf8)
        let seen = scanner.scan(stream[...])
        #expect(seen.end && seen.tiles == 1 && seen.status == 200)
        // A comment line after it is not a board.
        #expect(!scanner.scan(Array(": idle\n\n".utf8)[...]).end)
    }

    /// A wave's figures: percentiles over the boards that completed, and the two-second count.
    @Test func waveFigures() {
        var results: [BoardStreamProbe.ClientResult] = (1...10).map { index in
            var result = BoardStreamProbe.ClientResult()
            result.status = 200
            result.firstMessageMs = Double(index * 100)
            result.fullBoardMs = Double(index * 300)
            result.tiles = 50
            result.bytes = 1000
            return result
        }
        results.append(BoardStreamProbe.ClientResult())  // one that got nothing
        var refused = BoardStreamProbe.ClientResult()
        refused.status = 503
        results.append(refused)
        let wave = BoardBenchmark.wave(results, rssConnected: 5)
        #expect(wave.clientsWithFullBoard == 10 && wave.clientsRefused == 1)
        #expect(wave.clientsWithinTwoSeconds == 6)
        #expect(wave.fullBoardMaxMs == 3000)
        #expect(wave.fullBoardP50Ms == 1800)
        #expect(wave.tilesPerBoardMin == 50 && wave.bytesPerBoard == 1000)
    }

    @Test func gymRecordTypes() {
        #expect(GymPreload.type(of: #"{"type":"sample","session":"a"}"#) == "sample")
        #expect(GymPreload.type(of: #"{"session":"a"}"#) == "other")
    }

    /// The latency floor forwards exactly the paced samples on which ZoneStream's engine
    /// changes zone, so both produce the same outputs at the same moments; in every phase of
    /// the spread traffic too, where a session crosses at its own steps.
    @Test(arguments: 0..<10)
    func theFloorForwardsExactlyTheSamplesThatChangeZone(phase: Int) {
        var decoder = WorkoutEventDecoder()
        var store = SessionStore()
        var outputs = EngineOutputs()
        var crossing: [Int] = []
        var changed: [Int] = []
        for step in 0..<60 {
            let value = BenchTraffic.sample("l7", ts: 1_717_200_000_000 + Int64(step) * 10, step: step, phase: phase)
            if value.withUnsafeBytes({ BenchTraffic.crossesZone($0) }) { crossing.append(step) }
            guard case .success(let event) = decoder.decode(value: value, key: Array("l7".utf8)) else {
                Issue.record("sample \(step) was rejected")
                return
            }
            let before = outputs.zoneChanges.count
            store.handle(event, wallMs: 0, profiles: [:], outputs: &outputs)
            if outputs.zoneChanges.count > before { changed.append(step) }
        }
        // The first sample enters a zone; after it, every 10th step counted from the phase.
        let expected = [0] + stride(from: phase == 0 ? 10 : 10 - phase, to: 60, by: 10)
        #expect(crossing == expected)
        #expect(changed == crossing)
    }

    /// A rate window opens at a tenth of the records and closes at nine tenths: it counts the
    /// records, time, CPU and fresh pages between those moments only; the median of runs is
    /// the median of each figure, and a spread is the runs' range over their median.
    @Test func rateWindowMeasuresTheSteadyState() {
        var window = RateWindow(total: 10_000)
        window.note(count: 500)
        // Work until the process's CPU clock has moved (it ticks in steps of a few ms).
        let before = RateWindow.Usage.now().cpuSeconds
        window.note(count: 1_000)
        var sum: UInt64 = 0
        while RateWindow.Usage.now().cpuSeconds - before < 0.02 {
            for value in 0..<10_000 { sum &+= UInt64(value) &* 2_654_435_761 }
        }
        // 8 MB touched for the first time: mapped fresh (above glibc's mmap threshold), so
        // about 2,000 pages the kernel must find on first touch.
        let pages = 2_048
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: pages * 4_096, alignment: 4_096)
        defer { fresh.deallocate() }
        for page in 0..<pages { fresh.storeBytes(of: UInt8(page & 0xFF), toByteOffset: page * 4_096, as: UInt8.self) }
        window.note(count: 9_000)
        let closed = window.cost()
        // After the window closed: more work and more records change nothing.
        let after = RateWindow.Usage.now().cpuSeconds
        while RateWindow.Usage.now().cpuSeconds - after < 0.02 {
            for value in 0..<10_000 { sum &+= UInt64(value) &* 2_654_435_761 }
        }
        window.note(count: 10_000)
        let cost = window.cost()
        #expect(sum != 1)
        #expect(
            cost.recordsPerSecond == closed.recordsPerSecond
                && cost.cpuSecondsPerMillionRecords == closed.cpuSecondsPerMillionRecords)
        // 8,000 records in the window.
        #expect(cost.cpuSecondsPerMillionRecords >= 0.02 * 1_000_000 / 8_000)
        #expect(cost.pageFaultsPerMillionRecords >= Double(pages / 2) * 1_000_000 / 8_000)
        #expect(cost.coresBusy > 0 && cost.recordsPerSecond > 0)
        let median = ClientCost.median([
            ClientCost(
                recordsPerSecond: 1, cpuSecondsPerMillionRecords: 2, coresBusy: 1, pageFaultsPerMillionRecords: 10),
            ClientCost(
                recordsPerSecond: 9, cpuSecondsPerMillionRecords: 4, coresBusy: 2, pageFaultsPerMillionRecords: 30),
            ClientCost(
                recordsPerSecond: 3, cpuSecondsPerMillionRecords: 8, coresBusy: 1.5, pageFaultsPerMillionRecords: 20),
        ])
        #expect(median.recordsPerSecond == 3 && median.cpuSecondsPerMillionRecords == 4 && median.coresBusy == 1.5)
        #expect(median.pageFaultsPerMillionRecords == 20)
        let spread = Spread([90, 100, 110])
        #expect(spread.median == 100 && abs(spread.spread - 0.2) < 1e-9)
        #expect(Spread([1, 2, 3, 4]).median == 2.5)
    }

    /// The median's interval is two of the sorted values, picked by the sign test's binomial
    /// tails: the 6th and 15th of 20 (95.9%); the whole range when too few values give 95%.
    @Test func theMediansIntervalIsPickedFromTheSortedValues() throws {
        let twenty = (1...20).map { Double($0) / 10 }.shuffled()
        let interval = try #require(MedianInterval(twenty))
        #expect(interval.low == 0.6 && interval.high == 1.5)
        #expect(abs(interval.confidence - (1 - 2 * 21_700 / 1_048_576)) < 1e-12)
        let six = try #require(MedianInterval([3, 1, 2, 6, 5, 4]))
        #expect(six.low == 1 && six.high == 6 && six.confidence == 1 - 2.0 / 64)
        let five = try #require(MedianInterval([3, 1, 2, 5, 4]))
        #expect(five.low == 1 && five.high == 5 && five.confidence < 0.95)
        #expect(MedianInterval([]) == nil)
    }

    /// A child's rate is read from its input counter in `/metrics`, with or without labels,
    /// and not from a metric whose name only starts the same; its CPU from /proc.
    @Test func aChildsCounterAndCPUAreRead() {
        let text = """
            # TYPE zonestream_records_in_total_rate gauge
            zonestream_records_in_total_rate 5
            # TYPE zonestream_records_in_total counter
            zonestream_records_in_total 1234567
            """
        #expect(ChildThroughput.recordsIn(metrics: text) == 1_234_567)
        #expect(ChildThroughput.recordsIn(metrics: #"zonestream_records_in_total{instance="a"} 7"#) == 7)
        #expect(ChildThroughput.recordsIn(metrics: "zonestream_records_out_total 7") == nil)
        // Work until getrusage has seen 50 ms of CPU: /proc must have seen about as much.
        let before = (proc: RateWindow.Usage.of(pid: getpid()).cpuSeconds, own: RateWindow.Usage.now().cpuSeconds)
        var sum: UInt64 = 0
        while RateWindow.Usage.now().cpuSeconds - before.own < 0.05 {
            for value in 0..<100_000 { sum &+= UInt64(value) &* 2_654_435_761 }
        }
        #expect(sum != 1)
        #expect(RateWindow.Usage.of(pid: getpid()).cpuSeconds - before.proc >= 0.03)
        #expect(RateWindow.Usage.of(pid: -1).cpuSeconds == 0)
    }

    /// Both clients alternate which goes first (ZoneStream in the first run, so the floor knows
    /// its output size); one client alone is measured once per run.
    /// A zone change's `ts` is read whether or not its writer puts a blank after the colon
    /// (Python's json.dumps does), and an event without one has none.
    @Test func theLatencyReaderFindsTheSampleTime() {
        for text in [
            #"{"type":"zone_change","ts":1700000000123,"x":1}"#, #"{"type": "zone_change", "ts": 1700000000123}"#,
        ] {
            let ts = Array(text.utf8).withUnsafeBytes { ZoneChangeLatencyReader.timestamp(in: $0) }
            #expect(ts == 1_700_000_000_123, "\(text)")
        }
        #expect(
            Array(#"{"type":"zone_change"}"#.utf8).withUnsafeBytes { ZoneChangeLatencyReader.timestamp(in: $0) } == nil)
    }

    @Test func latencyClientsTakeTurns() {
        #expect(LatencyClients.both.turns(run: 0) == [false, true])
        #expect(LatencyClients.both.turns(run: 1) == [true, false])
        #expect(LatencyClients.both.turns(run: 2) == [false, true])
        #expect(LatencyClients.zonestream.turns(run: 1) == [false])
        #expect(LatencyClients.floor.turns(run: 0) == [true])
    }
}
