import Foundation

/// The process's CPU, memory, files and start time from Linux's /proc, as Prometheus client
/// libraries export them (`process_*`). Zero where /proc is not there (other systems).
struct ProcessStatistics {
    var cpuSeconds = 0.0
    var residentBytes = 0
    var virtualBytes = 0
    var openFileDescriptors = 0
    var maxFileDescriptors = 0
    var startTimeSeconds = 0.0
    var threads = 0

    /// Clock ticks per second of /proc's times (sysconf(_SC_CLK_TCK); 100 on Linux).
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    static func read() -> ProcessStatistics {
        var statistics = ProcessStatistics()
        // /proc/self/stat: the fields after the command's closing parenthesis, from field 3.
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        {
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            func field(_ number: Int) -> Double { fields.count > number - 3 ? Double(fields[number - 3]) ?? 0 : 0 }
            statistics.cpuSeconds = (field(14) + field(15)) / ticksPerSecond
            statistics.threads = Int(field(20))
            statistics.virtualBytes = Int(field(23))
            statistics.residentBytes = Int(field(24)) * pageSize
            statistics.startTimeSeconds = bootTimeSeconds + field(22) / ticksPerSecond
        }
        statistics.openFileDescriptors =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { statistics.maxFileDescriptors = Int(limit.rlim_cur) }
        return statistics
    }

    /// When the machine booted (`btime` in /proc/stat), in seconds since the epoch: read once,
    /// as it does not change (/proc/stat grows with the cores, and splitting it at every scrape
    /// was a tenth of the scrape's work).
    private static let bootTimeSeconds: Double = {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return 0 }
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) where line.starts(with: "btime ".utf8) {
            return Double(String(Substring(line.dropFirst(6)))) ?? 0
        }
        return 0
    }()
}
