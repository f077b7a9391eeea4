extension WorkoutSession {
    /// Applies a control event (`pause`, `resume`, `activity_start`, `activity_end`).
    /// Control events must not go back in time and must make sense, or they are refused
    /// as `invalid_transition` and change nothing.
    public mutating func applyControl(_ body: WorkoutEvent.Body, at timestamp: Int64) throws(Rejection) {
        try requireNotBeforeLatest(timestamp)
        switch body {
        case .pause:
            guard !isPaused else { throw Rejection(.invalidTransition, "pause while already paused") }
            pauses.append(PauseInterval(start: timestamp))
        case .resume:
            guard isPaused, let open = pauses.last else {
                throw Rejection(.invalidTransition, "resume while not paused")
            }
            pauses[pauses.count - 1].end = timestamp
            pausedMs += timestamp - open.start
        case .activityStart(let name):
            guard activities.count < Self.maximumActivities else {
                throw Rejection(
                    .invalidTransition, "a session has at most \(Self.maximumActivities) activities")
            }
            closeOpenActivity(at: timestamp)
            activities.append(ActivityRecord(name: name, start: timestamp))
        case .activityEnd:
            guard activities.last?.isOpen == true else {
                throw Rejection(.invalidTransition, "activity_end with no activity open")
            }
            closeOpenActivity(at: timestamp)
        case .sample, .sampleSeries, .sessionStart, .sessionEnd:
            return
        }
        latestTimestamp = timestamp
    }

    /// At most this many activities per session, ended ones included (docs/reference/contract.md):
    /// it bounds the finished workout's size.
    public static let maximumActivities = 100

    func requireNotBeforeLatest(_ timestamp: Int64) throws(Rejection) {
        guard timestamp >= latestTimestamp else {
            throw Rejection(
                .invalidTransition, "ts \(timestamp) is before the session's latest time \(latestTimestamp)")
        }
    }

    mutating func closeOpenActivity(at timestamp: Int64) {
        guard let last = activities.last, last.isOpen else { return }
        activities[activities.count - 1].end = timestamp
    }

    /// Applies a `session_start` to this live session: its zones apply to quantities with no
    /// accepted sample yet; person, class and activity fill only what is unset; start time stays.
    ///
    /// - Parameter profile: the profile of the person this event sets, when it sets one;
    ///   quantities without samples and without app zones are then resolved from it.
    /// - Returns: the rejection to dead-letter alongside (the rest of the event still applies).
    public mutating func update(with request: SessionStartRequest, profile: PersonProfile?) -> Rejection? {
        var refused: [Quantity] = []
        var personIsNew = false
        if person == nil, let newPerson = request.person {
            person = newPerson
            personIsNew = true
        }
        if activity == Self.defaultActivity, let newActivity = request.activity {
            activity = newActivity
        }
        if sessionClass == nil { sessionClass = request.sessionClass }
        for quantity in Quantity.allCases {
            if tracks[quantity].hasSamples {
                if request.zonesGiven[quantity] { refused.append(quantity) }
                continue
            }
            if let appZones = request.zones[quantity] {
                tracks[quantity].configuration = appZones
            } else if personIsNew, tracks[quantity].configuration?.source != .app {
                tracks[quantity].configuration = ZoneResolver.resolve(quantity, appZones: nil, profile: profile)
            }
        }
        if !refused.isEmpty {
            let names = refused.map(\.name).joined(separator: ", ")
            return Rejection(.zonesAfterCollectionBegan, "samples were already accepted for \(names)")
        }
        if let defect = request.zonesDefect { return Rejection(.invalidZones, defect) }
        return nil
    }

    /// Finishes the session at `end`: credits open coverage, closes an open pause and
    /// activity, and returns the summary. For `session_end`, `end` must not go back in time.
    public mutating func finish(
        at end: Int64, reason: WorkoutSummary.EndReason, settings: EngineSettings
    ) throws(Rejection) -> WorkoutSummary {
        try requireNotBeforeLatest(end)
        for quantity in Quantity.allCases where tracks[quantity].coverageOpen {
            creditOpenCoverage(quantity, upTo: end, settings: settings)
        }
        if let open = pauses.last, open.isOpen {
            pauses[pauses.count - 1].end = end
            pausedMs += end - open.start
        }
        closeOpenActivity(at: end)
        latestTimestamp = end
        return summary(endTimestamp: end, reason: reason, settings: settings)
    }
}
