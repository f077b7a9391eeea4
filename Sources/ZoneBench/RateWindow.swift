import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The window a client's rate is measured over: its steady state, from the moment it has
/// read a tenth of the records to the moment it has read nine tenths, with the CPU the
/// client's process used in it (every thread, user and system: this process, or a child's
/// for a processor run as one; the embedded broker runs in a process of its own and is not
/// counted). Leaving out the start (joining the group, the first
/// fetches) and the end (the last partitions draining one by one) keeps a run's figure to
/// what the client sustains: over the whole run, a client's runs in one measurement differed by
/// up to a half. On a machine with few cores a client that keeps every core busy reads as
/// fast as its CPU per record allows, so the CPU tells why two rates differ: work per
/// record, or cores left idle. Given the embedded broker's process, the window also takes the
/// broker's CPU: the work a client's requests cost the broker, on the same cores.
struct RateWindow {
    static let opensAt = 0.1
    static let closesAt = 0.9
    private let total: Int
    private let usage: () -> Usage
    private let broker: Int32?
    private var opening: (date: Date, count: Int, usage: Usage, broker: Usage?)?
    private var closing: (date: Date, count: Int, usage: Usage, broker: Usage?)?

    /// `usage`: the client's process's CPU so far (this process's by default); `broker`: the
    /// embedded broker's process, whose CPU is taken too (none on a user's cluster).
    init(total: Int, broker: Int32? = nil, usage: @escaping () -> Usage = Usage.now) {
        self.total = total
        self.broker = broker
        self.usage = usage
    }

    private var brokerUsage: Usage? { broker.map { Usage.of(pid: $0) } }

    /// Notes the client's running count of records; opens and closes the window as it passes
    /// a tenth and nine tenths of the total.
    mutating func note(count: Int) {
        if opening == nil && Double(count) >= Self.opensAt * Double(total) {
            opening = (Date(), count, usage(), brokerUsage)
        }
        if closing == nil, opening != nil, Double(count) >= Self.closesAt * Double(total) {
            closing = (Date(), count, usage(), brokerUsage)
        }
    }

    /// Whether the window holds a measurement: it opened and closed at two reads of the count
    /// rather than at one (a client that took every record of the window between two reads).
    var isMeasured: Bool {
        guard let opening, let closing else { return false }
        return closing.count > opening.count && closing.date > opening.date
    }

    /// The rate over the window and the CPU its records took (up to now, if the client never
    /// reached nine tenths).
    func cost() -> ClientCost {
        let now = (date: Date(), count: total, usage: usage(), broker: brokerUsage)
        let started = opening ?? now
        let ended = closing ?? now
        let records = ended.count - started.count
        let elapsed = max(ended.date.timeIntervalSince(started.date), 0.001)
        let cpu = ended.usage.cpuSeconds - started.usage.cpuSeconds
        let perMillion = records > 0 ? 1_000_000 / Double(records) : 0
        return ClientCost(
            recordsPerSecond: Double(records) / elapsed,
            cpuSecondsPerMillionRecords: cpu * perMillion,
            coresBusy: cpu / elapsed,
            pageFaultsPerMillionRecords: Double(ended.usage.pageFaults - started.usage.pageFaults) * perMillion,
            brokerCPUSecondsPerMillionRecords: ended.broker.flatMap { end in
                started.broker.map { (end.cpuSeconds - $0.cpuSeconds) * perMillion }
            })
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

        /// What process `pid` has used so far, from /proc/PID/stat (Linux; zeros when it cannot be read).
        static func of(pid: Int32) -> Usage {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return Usage(cpuSeconds: 0, pageFaults: 0) }
            // After the command's name: state (field 3) onwards; minflt is field 10, utime 14, stime 15.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            func field(_ number: Int) -> Int { fields.count > number - 3 ? Int(fields[number - 3]) ?? 0 : 0 }
            let ticks = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
            return Usage(cpuSeconds: Double(field(14) + field(15)) / ticks, pageFaults: field(10))
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
    /// The embedded broker's CPU seconds per million of the client's records (nil on a user's
    /// cluster): what the client's fetches, produce requests and commits cost the broker.
    var brokerCPUSecondsPerMillionRecords: Double?

    /// The median of several runs' figures, each figure on its own.
    static func median(_ costs: [ClientCost]) -> ClientCost {
        ClientCost(
            recordsPerSecond: Spread.median(costs.map(\.recordsPerSecond)),
            cpuSecondsPerMillionRecords: Spread.median(costs.map(\.cpuSecondsPerMillionRecords)),
            coresBusy: Spread.median(costs.map(\.coresBusy)),
            pageFaultsPerMillionRecords: Spread.median(costs.map(\.pageFaultsPerMillionRecords)),
            brokerCPUSecondsPerMillionRecords: costs.contains { $0.brokerCPUSecondsPerMillionRecords == nil }
                ? nil : Spread.median(costs.compactMap(\.brokerCPUSecondsPerMillionRecords)))
    }

    var description: String {
        String(
            format: "%.2f CPU-s per million records, %.2f cores busy, %.0f page faults per million records",
            cpuSecondsPerMillionRecords, coresBusy, pageFaultsPerMillionRecords)
            + (brokerCPUSecondsPerMillionRecords.map { String(format: ", broker %.3f CPU-s per million", $0) } ?? "")
    }
}
