import Foundation
import ZoneTestSupport

/// Workout events for the HTTP tests: sessions with app heart-rate zones 109/127/145/163 (set in
/// `session_start`, so no race with the profile table), where 100 bpm is zone 1, 150 zone 4 and
/// 170 zone 5, starting now.
struct GymTraffic {
    let input: TestInput
    let start = Int64(Date().timeIntervalSince1970 * 1000)

    static let zoneValues = [1: 100.0, 2: 118.0, 3: 135.0, 4: 150.0, 5: 170.0]

    func startSession(_ session: String, person: String) throws {
        try send(
            session,
            #"{"type":"session_start","session":"\#(session)","ts":\#(start),"person":"\#(person)","activity":"cycling","zones":{"heart_rate":{"boundaries":[109,127,145,163]}}}"#
        )
    }

    /// A heart-rate sample `seconds` after the start, in `zone`.
    func heartRate(_ session: String, at seconds: Int, zone: Int) throws {
        let value = Self.zoneValues[zone] ?? 100
        try send(
            session,
            #"{"type":"sample","session":"\#(session)","ts":\#(start + Int64(seconds) * 1000),"quantity":"heart_rate","value":\#(value)}"#
        )
    }

    func endSession(_ session: String, at seconds: Int) throws {
        try send(session, #"{"type":"session_end","session":"\#(session)","ts":\#(start + Int64(seconds) * 1000)}"#)
    }

    func send(_ session: String, _ json: String) throws {
        try input.send("workout-events", key: session, value: Array(json.utf8))
    }
}
