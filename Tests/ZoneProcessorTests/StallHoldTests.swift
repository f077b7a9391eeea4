import Testing

@testable import ZoneProcessor

/// A keyed stage holds its summaries for the group's session timeout after a stall of its
/// thread, so that a replaced member's late summaries never land after its successor's.
@Suite struct StallHoldTests {
    @Test func nothingIsHeldWithoutAStall() {
        var hold = StallHold<String>(graceMs: 10_000, capacity: 10, nowMs: 0)
        for now in stride(from: Int64(100), through: 60_000, by: 100) {
            #expect(!holding(&hold, at: now))
        }
    }

    @Test func aStallHoldsForTheGraceThenReleasesInOrder() {
        var hold = StallHold<String>(graceMs: 10_000, capacity: 10, nowMs: 0)
        #expect(!holding(&hold, at: 1_000))
        // Frozen for 30 s: the next look is a stall.
        #expect(holding(&hold, at: 31_000))
        #expect(held(&hold, "a", partition: 0))
        #expect(held(&hold, "b", partition: 1))
        #expect(held(&hold, "c", partition: 0))
        // Looked at every 100 ms from then on.
        #expect(lookEvery100Ms(&hold, from: 31_100, through: 40_900))
        #expect(!holding(&hold, at: 41_000))
        let released = hold.release()
        #expect(released[0] == ["a", "c"])
        #expect(released[1] == ["b"])
        #expect(hold.heldCount == 0)
    }

    @Test func aRevokedPartitionTakesItsHeldSummariesWithIt() {
        var hold = StallHold<String>(graceMs: 10_000, capacity: 10, nowMs: 0)
        #expect(holding(&hold, at: 20_000))
        #expect(held(&hold, "a", partition: 0))
        #expect(held(&hold, "b", partition: 1))
        hold.drop(partition: 0)
        #expect(hold.heldCount == 1)
        let released = hold.release()
        #expect(released == [1: ["b"]])
    }

    @Test func aFullHoldRefusesMore() {
        var hold = StallHold<Int>(graceMs: 10_000, capacity: 2, nowMs: 0)
        #expect(holding(&hold, at: 20_000))
        #expect(held(&hold, 1, partition: 0))
        #expect(held(&hold, 2, partition: 0))
        #expect(!held(&hold, 3, partition: 0))
        #expect(hold.heldCount == 2)
    }

    @Test func aSecondStallInAHoldExtendsIt() {
        var hold = StallHold<Int>(graceMs: 10_000, capacity: 2, nowMs: 0)
        #expect(holding(&hold, at: 20_000))
        #expect(lookEvery100Ms(&hold, from: 20_100, through: 29_000))
        // Frozen again for 7 s, 9 s into the hold: it ends 10 s after this stall.
        #expect(holding(&hold, at: 36_000))
        #expect(lookEvery100Ms(&hold, from: 36_100, through: 45_900))
        #expect(!holding(&hold, at: 46_000))
    }

    /// Looks every 100 ms from `start` through `end`; whether every look was holding.
    private func lookEvery100Ms<Output>(_ hold: inout StallHold<Output>, from start: Int64, through end: Int64) -> Bool
    {
        stride(from: start, through: end, by: 100).allSatisfy { hold.isHolding(nowMs: $0) }
    }

    private func holding<Output>(_ hold: inout StallHold<Output>, at nowMs: Int64) -> Bool {
        hold.isHolding(nowMs: nowMs)
    }

    private func held<Output>(_ hold: inout StallHold<Output>, _ output: Output, partition: Int32) -> Bool {
        hold.hold(output, partition: partition)
    }
}

/// The one stall rule of the workers' idle clocks and the stages' holds.
struct StallDetectorTests {
    @Test func aGapLongerThanTheStallTimeIsAStallAndABackwardClockIsNone() {
        var detector = StallDetector(nowMs: 1_000)
        #expect(detector.look(at: 2_000) == (elapsedMs: 1_000, stalled: false))
        #expect(detector.look(at: 2_000 + ProcessorConfiguration.stallMs + 1).stalled)
        #expect(detector.look(at: 500) == (elapsedMs: 0, stalled: false), "a clock stepped back is no stall")
        #expect(!detector.look(at: 7_100).stalled, "measured from the latest look, not the stepped-back one")
    }
}
