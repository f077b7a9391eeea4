/// What applying a record needs from outside the engine: the record starts a session (or its
/// `session_start` names the person of a live session that had none), so the person's profile,
/// the class's plan and, for a new session, the caps on live sessions must be consulted. The
/// engine asks by returning this from ``SessionStore/handle(_:wallMs:outputs:)``; the caller
/// reads its tables and hands the answers back as values
/// (``SessionStore/handle(_:wallMs:answers:outputs:)``), so the engine never calls out.
public struct TableQuery: Sendable, Equatable {
    /// The person whose profile the record reads.
    public let person: String?
    /// The class whose plan a starting session follows (a start with a class and no plan of
    /// its own).
    public let sessionClass: String?
    /// The start's own plan, which admission counts.
    public let ownPlan: WorkoutPlan?
    /// Whether the record starts a session, which the caps must admit.
    public let startsSession: Bool
}

/// The caller's answers to a ``TableQuery``.
public struct TableAnswers: Sendable {
    /// The person's profile as the tables hold it now; nil when there is none.
    public var profile: PersonProfile?
    /// The class's plan as the tables hold it now; nil when there is none.
    public var classPlan: WorkoutPlan?
    /// Whether the caps admit the new session (with ``TableQuery/ownPlan`` or ``classPlan``);
    /// a refused one is dead-lettered as `session_limit`.
    public var admitted: Bool

    public init(profile: PersonProfile? = nil, classPlan: WorkoutPlan? = nil, admitted: Bool = true) {
        self.profile = profile
        self.classPlan = classPlan
        self.admitted = admitted
    }

    /// The plan admission counts for a new session: its own, else its class's.
    public func plan(for query: TableQuery) -> WorkoutPlan? { query.ownPlan ?? classPlan }
}
