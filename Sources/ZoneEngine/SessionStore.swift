/// The live sessions of one worker, with the session rules of CONTRACT.md sections 1-3:
/// implicit start, `session_start` updating a live session, finished-session retention,
/// and the idle timeout. Wall-clock time is passed in, so the store is deterministic.
///
/// Owned by one worker thread; not shared.
public struct SessionStore: Sendable {
    public var settings: EngineSettings
    /// Live sessions by id.
    public private(set) var sessions: [String: WorkoutSession] = [:]
    /// Finished session ids and the wall-clock time they finished, kept for the retention period.
    public private(set) var finishedAt: [String: Int64] = [:]

    public init(settings: EngineSettings = EngineSettings()) {
        self.settings = settings
    }

    /// Applies one event. `profiles` looks up a person's profile; it is read only when a
    /// session starts (or a `session_start` sets the person of a live session).
    public mutating func handle(
        _ event: WorkoutEvent, wallMs: Int64, profiles: (String) -> PersonProfile?,
        sink: inout some SessionEventSink
    ) {
        if sessions[event.session] != nil {
            applyToLive(event, wallMs: wallMs, profiles: profiles, sink: &sink)
            return
        }
        if let finished = finishedAt[event.session] {
            if wallMs - finished < settings.finishedRetentionMs {
                guard case .sessionStart = event.body else {
                    sink.rejected(Rejection(.sessionFinished, "session \(event.session) has finished"))
                    return
                }
            }
            finishedAt[event.session] = nil
        }
        start(event, wallMs: wallMs, profiles: profiles, sink: &sink)
    }

    /// Finishes sessions with no applied event for the idle timeout, and forgets finished
    /// ids past their retention. Call it on a timer.
    public mutating func expire(wallMs: Int64, sink: inout some SessionEventSink) {
        let idle = sessions.values.filter { wallMs - $0.lastAppliedWallMs >= settings.idleTimeoutMs }
        for session in idle.sorted(by: { $0.id < $1.id }) {
            finish(session.id, at: session.latestTimestamp, reason: .idleTimeout, wallMs: wallMs, sink: &sink)
        }
        finishedAt = finishedAt.filter { wallMs - $0.value < settings.finishedRetentionMs }
    }

    /// Removes a live session without output: its partition moved to another instance.
    public mutating func evict(_ id: String) -> WorkoutSession? { sessions.removeValue(forKey: id) }

    /// Puts back a session restored from elsewhere (a changelog).
    public mutating func restore(_ session: WorkoutSession) { sessions[session.id] = session }

    private mutating func start(
        _ event: WorkoutEvent, wallMs: Int64, profiles: (String) -> PersonProfile?,
        sink: inout some SessionEventSink
    ) {
        var session: WorkoutSession
        var rejection: Rejection?
        switch event.body {
        case .sessionStart(let request):
            session = WorkoutSession(
                id: event.session, startTimestamp: event.timestamp, person: request.person,
                activity: request.activity, appZones: request.zones,
                profile: request.person.flatMap(profiles), wallMs: wallMs)
            rejection = request.zonesDefect.map { Rejection(.invalidZones, $0) }
        case .sample(_, _, let person), .sampleSeries(_, _, _, let person):
            session = WorkoutSession(
                id: event.session, startTimestamp: event.timestamp, person: person, activity: nil,
                profile: person.flatMap(profiles), wallMs: wallMs)
        case .resume, .activityEnd, .pause, .activityStart, .sessionEnd:
            session = WorkoutSession(
                id: event.session, startTimestamp: event.timestamp, person: nil, activity: nil,
                profile: nil, wallMs: wallMs)
        }
        if case .sessionStart = event.body {
            sessions[event.session] = session
            if let rejection { sink.rejected(rejection) }
            return
        }
        // Validate on the new session first: a dead-lettered event starts nothing.
        if case .resume = event.body {
            sink.rejected(Rejection(.invalidTransition, "resume while not paused"))
            return
        }
        if case .activityEnd = event.body {
            sink.rejected(Rejection(.invalidTransition, "activity_end with no activity open"))
            return
        }
        sessions[event.session] = session
        applyToLive(event, wallMs: wallMs, profiles: profiles, sink: &sink)
    }

    private mutating func applyToLive(
        _ event: WorkoutEvent, wallMs: Int64, profiles: (String) -> PersonProfile?,
        sink: inout some SessionEventSink
    ) {
        let id = event.session
        let settings = settings
        switch event.body {
        case .sample(let quantity, let value, _):
            applySample(id, quantity, at: event.timestamp, value: value, wallMs: wallMs, sink: &sink)
        case .sampleSeries(let quantity, let interval, let values, _):
            for (index, value) in values.enumerated() {
                let timestamp = event.timestamp + Int64(index) * interval
                applySample(id, quantity, at: timestamp, value: value, wallMs: wallMs, sink: &sink)
            }
        case .sessionStart(let request):
            let newPerson = sessions[id]?.person == nil ? request.person : nil
            let profile = newPerson.flatMap(profiles)
            if let rejection = sessions[id]?.update(with: request, profile: profile) { sink.rejected(rejection) }
            sessions[id]?.lastAppliedWallMs = wallMs
        case .sessionEnd:
            finish(id, at: event.timestamp, reason: .ended, wallMs: wallMs, sink: &sink)
        case .pause, .resume, .activityStart, .activityEnd:
            do {
                try sessions[id]?.applyControl(event.body, at: event.timestamp)
                sessions[id]?.lastAppliedWallMs = wallMs
            } catch {
                sink.rejected(error)
            }
        }
        _ = settings
    }

    /// The per-sample path of the store: one dictionary lookup, then the session's hot path.
    public mutating func applySample(
        _ id: String, _ quantity: Quantity, at timestamp: Int64, value: Double, wallMs: Int64,
        sink: inout some SessionEventSink
    ) {
        let settings = settings
        guard let outcome = sessions[id]?.applySample(quantity, at: timestamp, value: value, settings: settings)
        else { return }
        guard case .accepted(let change) = outcome else { return }
        sessions[id]?.lastAppliedWallMs = wallMs
        if let change, let session = sessions[id] { sink.zoneChanged(change, in: session) }
    }

    private mutating func finish(
        _ id: String, at end: Int64, reason: WorkoutSummary.EndReason, wallMs: Int64,
        sink: inout some SessionEventSink
    ) {
        let settings = settings
        do {
            guard let summary = try sessions[id]?.finish(at: end, reason: reason, settings: settings) else { return }
            sessions[id] = nil
            finishedAt[id] = wallMs
            sink.workoutFinished(summary)
        } catch {
            sink.rejected(error)
        }
    }
}
