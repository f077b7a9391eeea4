import Testing
import ZoneEngine

@testable import ZoneProcessor

/// When a partition counts as caught up, so its idle clock may run: only once this instance
/// has applied up to the end the broker held, by the consumer's cached watermarks and by the
/// end asked when the partition was assigned. A partition this instance owned before keeps the
/// watermark of its last fetch then, which can be below what the owner in between committed.
@Suite struct PartitionCaughtUpTests {
    static func state(nextOffset: Int64 = -1, assignedOffset: Int64 = -1, assignedEnd: Int64 = -1) -> PartitionState {
        var state = PartitionState(settings: EngineSettings(), wallMs: 0)
        state.nextOffset = nextOffset
        state.assignedOffset = assignedOffset
        state.assignedEnd = assignedEnd
        return state
    }

    @Test func aStaleCachedWatermarkDoesNotMakeAReassignedPartitionCaughtUp() {
        // Owned before up to offset 400; the owner in between committed 700; the broker held
        // 900 at the assignment; nothing fetched since.
        let state = Self.state(assignedOffset: 700, assignedEnd: 900)
        #expect(!state.isCaughtUp(known: (low: 0, high: 400), position: -1001))
        // Read and applied up to the end asked at the assignment.
        var applied = state
        applied.nextOffset = 900
        #expect(applied.isCaughtUp(known: (low: 0, high: 400), position: 900))
        // A fetch since has moved the cached watermark past it: that end counts.
        #expect(!applied.isCaughtUp(known: (low: 0, high: 950), position: 900))
    }

    @Test func nothingCommittedAndNothingNewIsCaughtUp() {
        // The committed offset is the partition's end: nothing to read.
        let atTheEnd = Self.state(assignedOffset: 500, assignedEnd: 500)
        #expect(atTheEnd.isCaughtUp(known: (low: 0, high: 500), position: -1001))
        // An empty partition.
        #expect(Self.state(assignedEnd: 0).isCaughtUp(known: (low: 0, high: 0), position: -1001))
    }

    @Test func withoutAnyCachedWatermarkItIsNot() {
        #expect(!Self.state(nextOffset: 900, assignedEnd: 900).isCaughtUp(known: nil, position: 900))
    }

    @Test func anEndThatCouldNotBeAskedLeavesTheCachedWatermarkToDecide() {
        let state = Self.state(nextOffset: 400)
        #expect(state.isCaughtUp(known: (low: 0, high: 400), position: 400))
        #expect(!state.isCaughtUp(known: (low: 0, high: 401), position: 400))
    }
}
