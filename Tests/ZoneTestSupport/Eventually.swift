import Foundation

/// Waiting for a condition instead of a fixed time: how every test waits for a process, a
/// broker or an output, so a slow machine makes a test slower, not wrong.
public enum Eventually {
    /// Checks `condition` every `pollSeconds` until it holds or `seconds` have passed;
    /// whether it held (checked once more at the end).
    @discardableResult
    public static func holds(
        within seconds: Double, poll pollSeconds: Double = 0.05, _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: pollSeconds)
        }
        return try condition()
    }

    /// The first non-nil value `probe` gives within `seconds`, checked every `pollSeconds`.
    public static func value<Value>(
        within seconds: Double, poll pollSeconds: Double = 0.1, _ probe: () throws -> Value?
    ) rethrows -> Value? {
        var found: Value?
        try holds(within: seconds, poll: pollSeconds) {
            found = try probe()
            return found != nil
        }
        return found
    }
}
