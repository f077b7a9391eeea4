import Foundation
import Testing
@testable import ZoneProcessor

/// The heap trimmer gives memory freed in the middle of the heap back to the system, which the
/// allocator alone keeps (it returns memory from the top of a heap only).
@Suite(.timeLimit(.minutes(1)))
struct HeapTrimmerTests {
    @Test func freedMemoryInTheMiddleOfTheHeapIsReleased() throws {
        // 64 KB blocks (below the allocator's mmap threshold, so from the heap), every other one
        // freed: whole free pages between blocks still in use.
        let blocks = (0..<400).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 64 * 1024, alignment: 16) }
        for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 64 * 1024) }
        for (index, block) in blocks.enumerated() where index % 2 == 0 { block.deallocate() }
        defer { for (index, block) in blocks.enumerated() where index % 2 == 1 { block.deallocate() } }

        let trimmer = HeapTrimmer(intervalMs: 20)
        defer { trimmer.stop() }
        let deadline = Date().addingTimeInterval(10)
        while trimmer.trimsThatReleased == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(trimmer.trimsThatReleased >= 1)
    }

    @Test func anIntervalOfZeroTrimsNothingAndStopsAtOnce() {
        let trimmer = HeapTrimmer(intervalMs: 0)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(trimmer.trimsThatReleased == 0)
        trimmer.stop()
    }
}
