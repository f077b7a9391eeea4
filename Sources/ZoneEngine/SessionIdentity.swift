/// Whose a session is: its id, person and class.
///
/// One immutable object per session, replaced when a `session_start` sets the person or the
/// class, so that the session's live outputs share it: an output's session then costs one
/// retain per record, where the three strings cost one each per output.
public final class SessionIdentity: Sendable {
    public let session: String
    public let person: String?
    public let sessionClass: String?

    public init(session: String, person: String?, sessionClass: String?) {
        self.session = session
        self.person = person
        self.sessionClass = sessionClass
    }
}
