/// The live sessions of one worker, with the session rules of docs/reference/contract.md:
/// implicit start, `session_start` updating a live session, finished-session retention,
/// and the idle timeout. Wall-clock time is passed in, so the store is deterministic.
///
/// Owned by one worker thread; not shared.
public struct SessionStore: Sendable {
    public var settings: EngineSettings
    /// Live sessions, contiguous so one can be mutated in place through the array's
    /// addressor (a dictionary's `_modify` would move the whole session out and back).
    var live: [WorkoutSession] = []
    /// The slot in `live` of each live session id.
    var slots = SessionIndex()
    /// Finished session ids and the wall-clock time they finished, kept for the retention period.
    public internal(set) var finishedAt: [String: Int64] = [:]
    /// Per slot of `live`: changed since the last ``drainChanges()``.
    var dirty: [Bool] = []
    /// What changed since the last ``drainChanges()``, for the changelog.
    var changes = StoreChanges()
    /// Late and duplicate samples since the last ``takeSampleQuality()``, for metrics.
    var sampleQuality = SampleQuality()

    /// The live session with this id.
    public func session(_ id: String) -> WorkoutSession? { slots.slot(of: id).map { live[$0] } }

    /// Every live session (a copy, for queries and snapshots).
    public var sessions: [WorkoutSession] { live }

    /// How many sessions are live.
    public var liveCount: Int { live.count }

    /// Whether applying `event` would read the tables (a profile or a class plan): it starts a
    /// session, or its `session_start` names the person of a live session that had none. The
    /// caller holds such an event until the tables are read as of it (contract, section 1).
    public func readsTables(for event: WorkoutEvent) -> Bool {
        guard let slot = slots.slot(of: event.session) else { return true }
        guard case .sessionStart(let request) = event.body else { return false }
        return request.person != nil && live[slot].person == nil
    }

    /// Late and duplicate samples counted since the last call, which starts the count again.
    public mutating func takeSampleQuality() -> SampleQuality {
        defer { sampleQuality = SampleQuality() }
        return sampleQuality
    }

    public init(settings: EngineSettings = EngineSettings()) {
        self.settings = settings
    }

    /// Applies one event, appending what it produced to `outputs`, unless it needs the tables:
    /// it starts a session or names the person of a live one. Then nothing is applied and the
    /// query says what to read; apply it with ``handle(_:wallMs:answers:outputs:)``. A sample of
    /// a live session, nearly every record, is applied here in one look-up.
    public mutating func handle(_ event: WorkoutEvent, wallMs: Int64, outputs: inout EngineOutputs) -> TableQuery? {
        if let slot = slots.slot(of: event.session) {
            if case .sessionStart(let request) = event.body {
                if live[slot].person == nil, let person = request.person {
                    return TableQuery(person: person, sessionClass: nil, ownPlan: nil, startsSession: false)
                }
                updateLive(slot: slot, with: request, wallMs: wallMs, profile: nil, outputs: &outputs)
                return nil
            }
            applyToLive(event, slot: slot, wallMs: wallMs, outputs: &outputs)
            return nil
        }
        guard mayStart(event, wallMs: wallMs, outputs: &outputs) else { return nil }
        switch event.body {
        case .sessionStart(let request):
            return TableQuery(
                person: request.person, sessionClass: request.plan == nil ? request.sessionClass : nil,
                ownPlan: request.plan, startsSession: true)
        case .sample(_, _, let person), .sampleSeries(_, _, _, let person):
            return TableQuery(person: person, sessionClass: nil, ownPlan: nil, startsSession: true)
        case .resume, .activityEnd:
            // Refused before anything is read: the new session would be in no state to take it.
            start(event, wallMs: wallMs, answers: TableAnswers(), outputs: &outputs)
            return nil
        case .pause, .activityStart, .sessionEnd:
            return TableQuery(person: nil, sessionClass: nil, ownPlan: nil, startsSession: true)
        }
    }

    /// Applies one event with the tables' answers to the query ``handle(_:wallMs:outputs:)``
    /// returned for it: the profile of a person the event names, the plan of a starting
    /// session's class, and whether the caps admit a new session (the caller counts them, and
    /// frees a place for each finished workout it reads).
    public mutating func handle(
        _ event: WorkoutEvent, wallMs: Int64, answers: TableAnswers, outputs: inout EngineOutputs
    ) {
        if let slot = slots.slot(of: event.session) {
            if case .sessionStart(let request) = event.body {
                updateLive(slot: slot, with: request, wallMs: wallMs, profile: answers.profile, outputs: &outputs)
            } else {
                applyToLive(event, slot: slot, wallMs: wallMs, outputs: &outputs)
            }
            return
        }
        guard mayStart(event, wallMs: wallMs, outputs: &outputs) else { return }
        start(event, wallMs: wallMs, answers: answers, outputs: &outputs)
    }

    /// Whether `event` may start a session: not while its id is a recently finished session's,
    /// unless it is a `session_start` (which restarts it).
    private mutating func mayStart(_ event: WorkoutEvent, wallMs: Int64, outputs: inout EngineOutputs) -> Bool {
        guard let finished = finishedAt[event.session] else { return true }
        if wallMs - finished < settings.finishedRetentionMs {
            guard case .sessionStart = event.body else {
                outputs.reject(Rejection(.sessionFinished, "session \(event.session) has finished"))
                return false
            }
        }
        finishedAt[event.session] = nil
        return true
    }

    @inline(__always)
    mutating func markChanged(slot: Int) {
        guard !dirty[slot] else { return }
        dirty[slot] = true
        changes.updated.append(live[slot].id)
    }

    /// Adds a session; `changed` marks it for the next changelog write (a restored one is not).
    mutating func insert(_ session: WorkoutSession, changed: Bool = true) {
        if live.count == live.capacity {
            // Grown by a quarter rather than doubled: a session is over half a kilobyte, and a
            // doubled array leaves on average about a third of its slots empty.
            let capacity = live.count + max(16, live.count / 4)
            live.reserveCapacity(capacity)
            dirty.reserveCapacity(capacity)
        }
        slots.set(session.id, slot: live.count)
        live.append(session)
        dirty.append(false)
        if changed { markChanged(slot: live.count - 1) }
    }

    /// Removes a slot by moving the last session into it.
    mutating func remove(slot: Int) -> WorkoutSession {
        let removed = live[slot]
        slots.remove(removed.id)
        let last = live.count - 1
        if slot != last {
            live.swapAt(slot, last)
            dirty.swapAt(slot, last)
            slots.set(live[slot].id, slot: slot)
        }
        live.removeLast()
        dirty.removeLast()
        return removed
    }

    private mutating func start(
        _ event: WorkoutEvent, wallMs: Int64, answers: TableAnswers, outputs: inout EngineOutputs
    ) {
        var session: WorkoutSession
        var rejection: Rejection?
        switch event.body {
        case .sessionStart(let request):
            // The session's own plan, else its class's as read now (contract, "Plans and targets").
            let plan = request.plan ?? (request.sessionClass == nil ? nil : answers.classPlan)
            session = WorkoutSession(
                id: event.session, startTimestamp: event.timestamp, person: request.person,
                activity: request.activity, sessionClass: request.sessionClass, appZones: request.zones,
                profile: request.person == nil ? nil : answers.profile, wallMs: wallMs, plan: plan)
            rejection = Self.requestRejection(request)
        case .sample(_, _, let person), .sampleSeries(_, _, _, let person):
            session = WorkoutSession(
                id: event.session, startTimestamp: event.timestamp, person: person, activity: nil,
                profile: person == nil ? nil : answers.profile, wallMs: wallMs)
        case .resume, .activityEnd, .pause, .activityStart, .sessionEnd:
            session = WorkoutSession(
                id: event.session, startTimestamp: event.timestamp, person: nil, activity: nil,
                profile: nil, wallMs: wallMs)
        }
        if case .sessionStart = event.body {
            guard Self.admit(session, answers.admitted, outputs: &outputs) else { return }
            insert(session)
            if let rejection { outputs.reject(rejection) }
            return
        }
        // Validate on the new session first: a dead-lettered event starts nothing.
        if case .resume = event.body {
            outputs.reject(Rejection(.invalidTransition, "resume while not paused"))
            return
        }
        if case .activityEnd = event.body {
            outputs.reject(Rejection(.invalidTransition, "activity_end with no activity open"))
            return
        }
        guard Self.admit(session, answers.admitted, outputs: &outputs) else { return }
        insert(session)
        applyToLive(event, slot: live.count - 1, wallMs: wallMs, outputs: &outputs)
    }

    /// The one dead letter a starting `session_start` gets, by the contract's order of reasons.
    static func requestRejection(_ request: SessionStartRequest) -> Rejection? {
        request.zonesDefect.map { Rejection(.invalidZones, $0) } ?? planRejection(request)
    }

    static func planRejection(_ request: SessionStartRequest) -> Rejection? {
        request.planDefect.map { Rejection(.invalidPlan, $0) }
    }

    /// Whether the caps admitted the new session; dead-letters the event when not.
    private static func admit(_ session: WorkoutSession, _ admitted: Bool, outputs: inout EngineOutputs) -> Bool {
        guard admitted else {
            outputs.reject(
                Rejection(
                    .sessionLimit,
                    "the live-session limit of this instance is reached (max_live_sessions, max_session_memory_mb); session \(session.id) not started"
                ))
            return false
        }
        return true
    }

    /// A later `session_start` of a live session: it never changes the plan, and a defective
    /// one is still refused. `profile` is the person's, when the request names the session's
    /// first person. Apart from ``applyToLive(_:slot:wallMs:outputs:)`` so that a sample never
    /// carries a profile (an optional of several hundred bytes, copied on every call).
    private mutating func updateLive(
        slot: Int, with request: SessionStartRequest, wallMs: Int64, profile: PersonProfile?,
        outputs: inout EngineOutputs
    ) {
        markChanged(slot: slot)
        let newPerson = live[slot].person == nil ? request.person : nil
        let profile = newPerson == nil ? nil : profile
        if let rejection = live[slot].update(with: request, profile: profile) ?? Self.planRejection(request) {
            outputs.reject(rejection)
        }
        live[slot].lastAppliedWallMs = wallMs
    }

    private mutating func applyToLive(_ event: WorkoutEvent, slot: Int, wallMs: Int64, outputs: inout EngineOutputs) {
        markChanged(slot: slot)
        switch event.body {
        case .sample(let quantity, let value, _):
            applySample(slot: slot, quantity, at: event.timestamp, value: value, wallMs: wallMs, outputs: &outputs)
        case .sampleSeries(let quantity, let interval, let values, _):
            for (index, value) in values.enumerated() {
                let timestamp = event.timestamp + Int64(index) * interval
                applySample(slot: slot, quantity, at: timestamp, value: value, wallMs: wallMs, outputs: &outputs)
            }
        case .sessionStart(let request):
            updateLive(slot: slot, with: request, wallMs: wallMs, profile: nil, outputs: &outputs)
        case .sessionEnd:
            releaseHeld(slot: slot, through: event.timestamp, wallMs: wallMs, outputs: &outputs)
            sampleQuality.late += live[slot].heldSampleCount
            live[slot].dropHeldAsLate()
            finish(slot: slot, at: event.timestamp, reason: .ended, wallMs: wallMs, outputs: &outputs)
        case .pause, .resume, .activityStart, .activityEnd:
            // Held samples before the control event are applied before it; later ones wait.
            releaseHeld(slot: slot, through: event.timestamp &- 1, wallMs: wallMs, outputs: &outputs)
            do {
                try live[slot].applyControl(event.body, at: event.timestamp)
                live[slot].lastAppliedWallMs = wallMs
            } catch {
                outputs.reject(error)
            }
        }
    }
}
