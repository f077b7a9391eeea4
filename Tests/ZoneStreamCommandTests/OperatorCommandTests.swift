import ArgumentParser
import Testing

@testable import zonestream

/// Operator commands refuse what cannot mean anything before they connect.
struct OperatorCommandTests {
    /// A reason no dead letter has would replay nothing and say so as a success.
    @Test func aDeadLetterReplayForAnUnknownReasonIsRefused() {
        do {
            _ = try DeadLetterReplayCommand.parse(["--reason", "bogus_reason", "--dry-run"])
            Issue.record("an unknown reason was taken")
        } catch {
            let message = DeadLetterReplayCommand.message(for: error)
            #expect(message.contains("'bogus_reason'") && message.contains("session_limit"), "\(message)")
            #expect(DeadLetterReplayCommand.exitCode(for: error) == .validationFailure)
        }
        #expect(throws: Never.self) { try DeadLetterReplayCommand.parse(["--reason", "session_limit", "--dry-run"]) }
    }
}
