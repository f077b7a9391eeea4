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
    private var opening: (date: Date, cpuSeconds: Double)?

    var hasStarted: Bool { opening != nil }

    /// Starts the window; later calls change nothing.
    mutating func start() {
        if opening == nil { opening = (Date(), Self.processCPUSeconds()) }
    }

    /// The rate of `records` over the window up to now, and the CPU they took.
    func close(records: Int) -> ClientCost {
        let now = Date()
        let started = opening ?? (now, Self.processCPUSeconds())
        let elapsed = max(now.timeIntervalSince(started.date), 0.001)
        let cpu = Self.processCPUSeconds() - started.cpuSeconds
        return ClientCost(
            recordsPerSecond: Double(records) / elapsed,
            cpuSecondsPerMillionRecords: records > 0 ? cpu * 1_000_000 / Double(records) : 0,
            coresBusy: cpu / elapsed)
    }

    /// CPU seconds this process has used so far (threads that have ended included).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// What a client's records cost: its rate, the CPU per million records, and how many cores
/// it kept busy on average.
struct ClientCost: Codable {
    var recordsPerSecond: Double
    var cpuSecondsPerMillionRecords: Double
    var coresBusy: Double

    /// The mean of several runs' figures.
    static func mean(_ costs: [ClientCost]) -> ClientCost {
        let count = Double(max(costs.count, 1))
        return ClientCost(
            recordsPerSecond: costs.map(\.recordsPerSecond).reduce(0, +) / count,
            cpuSecondsPerMillionRecords: costs.map(\.cpuSecondsPerMillionRecords).reduce(0, +) / count,
            coresBusy: costs.map(\.coresBusy).reduce(0, +) / count)
    }

    var description: String {
        String(format: "%.2f CPU-s per million records, %.2f cores busy", cpuSecondsPerMillionRecords, coresBusy)
    }
}
