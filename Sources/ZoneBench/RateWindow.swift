import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The window a client's rate is measured over, from its first record to its last, with the
/// CPU this process used in it (every thread, user and system; the embedded broker runs in
/// a process of its own and is not counted). On a machine with few cores a client that keeps
/// every core busy reads as fast as its CPU per record allows, so the CPU tells why two rates
/// differ: work per record, or cores left idle.
struct RateWindow {
    private var opening: (date: Date, usage: Usage)?

    var hasStarted: Bool { opening != nil }

    /// Starts the window; later calls change nothing.
    mutating func start() {
        if opening == nil { opening = (Date(), Usage.now()) }
    }

    /// The rate of `records` over the window up to now, and the CPU they took.
    func close(records: Int) -> ClientCost {
        let now = Date()
        let started = opening ?? (now, Usage.now())
        let elapsed = max(now.timeIntervalSince(started.date), 0.001)
        let usage = Usage.now()
        let cpu = usage.cpuSeconds - started.usage.cpuSeconds
        let perMillion = records > 0 ? 1_000_000 / Double(records) : 0
        return ClientCost(
            recordsPerSecond: Double(records) / elapsed,
            cpuSecondsPerMillionRecords: cpu * perMillion,
            coresBusy: cpu / elapsed,
            pageFaultsPerMillionRecords: Double(usage.pageFaults - started.usage.pageFaults) * perMillion)
    }

    /// What this process has used so far (threads that have ended included).
    struct Usage {
        /// User and system CPU seconds.
        var cpuSeconds: Double
        /// Minor page faults: pages the kernel had to find (and zero) when first touched.
        var pageFaults: Int

        static func now() -> Usage {
            var usage = rusage()
            guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return Usage(cpuSeconds: 0, pageFaults: 0) }
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
            return Usage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), pageFaults: usage.ru_minflt)
        }
    }
}

/// What a client's records cost: its rate, the CPU per million records, and how many cores
/// it kept busy on average.
struct ClientCost: Codable {
    var recordsPerSecond: Double
    var cpuSecondsPerMillionRecords: Double
    var coresBusy: Double
    /// Minor page faults per million records: fresh memory the client's allocations touched
    /// (a client that keeps more records in flight, or runs first in the process, pays more).
    var pageFaultsPerMillionRecords: Double

    /// The mean of several runs' figures.
    static func mean(_ costs: [ClientCost]) -> ClientCost {
        let count = Double(max(costs.count, 1))
        return ClientCost(
            recordsPerSecond: costs.map(\.recordsPerSecond).reduce(0, +) / count,
            cpuSecondsPerMillionRecords: costs.map(\.cpuSecondsPerMillionRecords).reduce(0, +) / count,
            coresBusy: costs.map(\.coresBusy).reduce(0, +) / count,
            pageFaultsPerMillionRecords: costs.map(\.pageFaultsPerMillionRecords).reduce(0, +) / count)
    }

    var description: String {
        String(format: "%.2f CPU-s per million records, %.2f cores busy, %.0f page faults per million records",
            cpuSecondsPerMillionRecords, coresBusy, pageFaultsPerMillionRecords)
    }
}
