import Foundation

/// Resident memory of a process, from /proc/PID/status (Linux), for the benchmark and the
/// memory tests.
public enum ProcessMemory {
    /// Current (VmRSS) and peak (VmHWM) resident bytes of `pid` (this process when nil);
    /// zeros when /proc cannot be read.
    public static func residentBytes(pid: Int32? = nil) -> (current: Int, peak: Int) {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return (0, 0) }
        func value(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0)
                * 1024
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }
}
