import CJansson
public import ZoneEngine

extension OutputEncoder {
    /// One live session as the operator's endpoint shows it (`/sessions/{id}`): the shapes of
    /// the contract's outputs (configuration, zones, `zone_durations`) for what is live now.
    ///
    /// `{"session","person","name","class","activity","start_ts","latest_ts","paused","max_hr","percent_max_hr",
    /// "points","calories_kcal","kilojoules","zone_groups":{quantity:
    /// {"configuration","current_zone","current_value","samples","zone_durations"}}}`, where a
    /// quantity without zones has null configuration and current_zone and empty zone_durations.
    /// `max_hr` is the person's maximum heart rate (profile `max_hr`, else from age) and
    /// `percent_max_hr` the current heart rate as a rounded share of it; both null when unknown.
    /// `name` is the profile's display name; `points`, `calories_kcal` and `kilojoules` are the
    /// effort so far, each null where the finished workout would not count it. With
    /// `staleMs`, a last member `stale_ms` says how old the state is: how long ago its owner
    /// took it (a commit interval at most while the owner runs; more while its partition moves).
    public static func liveSession(_ state: LiveSessionState, staleMs: Int64? = nil) -> [UInt8] {
        let value = liveSessionValue(state)
        if let staleMs { json_object_set_new(value, "stale_ms", Build.integer(max(0, staleMs))) }
        return Build.dump(value)
    }

    static func liveSessionValue(_ state: LiveSessionState) -> JanssonBuilder.Value {
        Build.object([
            "session": Build.string(state.session),
            "person": Build.optionalString(state.person),
            "name": Build.optionalString(state.name),
            "class": Build.optionalString(state.sessionClass),
            "activity": Build.string(state.activity),
            "start_ts": Build.integer(state.startTimestamp),
            "latest_ts": Build.integer(state.latestTimestamp),
            "paused": state.isPaused ? json_true() : json_false(),
            "max_hr": state.maximumHeartRate.map(Build.number),
            "percent_max_hr": state.percentOfMaximumHeartRate.map(Build.integer),
            "percent_hrr": state.percentOfHeartRateReserve.map(Build.integer),
            "percent_ftp": state.percentOfFunctionalThresholdPower.map(Build.integer),
            "points": state.effort.heartRate.map { Build.real(Double($0.pointsTenths) / 10) },
            "calories_kcal": state.effort.heartRate?.caloriesKcal.map(Build.integer),
            "kilojoules": state.effort.kilojoulesTenths.map { Build.real(Double($0) / 10) },
            "plan": state.target.map(livePlan),
            "zone_groups": keyed(
                state.zoneGroups.map { group in
                    (
                        group.quantity.name,
                        Build.object([
                            "configuration": group.configuration.map(configuration),
                            "current_zone": group.configuration.flatMap { configuration in
                                group.currentZone.map { zone($0, configuration) }
                            },
                            "current_value": group.currentValue.map(Build.number),
                            "samples": Build.integer(group.samples),
                            "zone_durations": group.configuration.map { durations(group.durations, $0) }
                                ?? Build.array([]),
                        ])
                    )
                }),
        ])
    }
}

extension OutputEncoder {
    /// `text` as a JSON string literal, quotes included (for hand-built JSON such as errors).
    public static func jsonString(_ text: String) -> [UInt8] {
        var writer = JSONTextWriter(capacity: text.utf8.count + 2)
        writer.appendString(text)
        return writer.takeBytes()
    }
}

extension OutputEncoder {
    /// A live session's `plan`: its name and source, how many steps, the current step with its
    /// targets (null outside the plan's steps) and each targeted quantity's status in it.
    static func livePlan(_ target: LiveTarget) -> JanssonBuilder.Value {
        let plan = target.plan
        var status: [(String, JanssonBuilder.Value)] = []
        for quantity in Quantity.allCases {
            if let value = target.status(of: quantity) { status.append((quantity.name, Build.string(value.name))) }
        }
        return Build.object([
            "plan": Build.optionalString(plan.name),
            "source": Build.string(plan.source.rawValue),
            "steps": Build.integer(plan.steps.count),
            "start_ts": Build.integer(plan.anchor),
            "end_ts": Build.integer(plan.end),
            "step": target.step.map { step(plan, $0) },
            "status": keyed(status),
        ])
    }

    /// A step with its place and targets, as a board shows it.
    static func step(_ plan: WorkoutPlan, _ index: Int) -> JanssonBuilder.Value {
        var targets: [(String, JanssonBuilder.Value)] = []
        for quantity in Quantity.allCases {
            guard let target = plan.steps[index].targets[quantity] else { continue }
            var writer = JSONTextWriter(capacity: 64)
            writer.appendTarget(target)
            targets.append((quantity.name, json_loadb(writer.bytes, writer.bytes.count, 0, nil)))
        }
        return Build.object([
            "index": Build.integer(index + 1),
            "purpose": Build.string(plan.steps[index].purpose.rawValue),
            "start_ts": Build.integer(plan.start(ofStep: index)),
            "end_ts": Build.integer(plan.end(ofStep: index)),
            "targets": keyed(targets),
        ])
    }

    /// A class as it runs (`GET /classes/{class}`): its plan's current step at `nowMs` with the
    /// time left in it, each member's target status, and the live leaderboard by points so far.
    /// `results` is the class's latest `class_summary` (its latest day), when there is one;
    /// `name` gives each of its leaderboard's persons their display name, so a board that
    /// shows names on the tiles shows them in the results too. Each member's `stale_ms` is how long ago its owner took the state shown, and the class's
    /// `stale_ms` the largest of them: how old the oldest part of the answer is.
    public static func liveClass(
        _ sessionClass: String, plan: WorkoutPlan?, members: [(state: LiveSessionState, staleMs: Int64)],
        results: [UInt8]? = nil, name: (String) -> String? = { _ in nil }, nowMs: Int64
    ) -> [UInt8] {
        let current = plan.flatMap { $0.step(at: nowMs) }
        func points(_ member: (state: LiveSessionState, staleMs: Int64)) -> Int64 {
            member.state.effort.heartRate?.pointsTenths ?? -1
        }
        func entry(_ member: (state: LiveSessionState, staleMs: Int64)) -> JanssonBuilder.Value {
            let state = member.state
            var status: [(String, JanssonBuilder.Value)] = []
            for quantity in Quantity.allCases {
                if let value = state.target?.status(of: quantity) {
                    status.append((quantity.name, Build.string(value.name)))
                }
            }
            return Build.object([
                "session": Build.string(state.session),
                "person": Build.optionalString(state.person),
                "name": Build.optionalString(state.name),
                "status": keyed(status),
                "points": state.effort.heartRate.map { Build.real(Double($0.pointsTenths) / 10) },
                "calories_kcal": state.effort.heartRate?.caloriesKcal.map(Build.integer),
                "stale_ms": Build.integer(max(0, member.staleMs)),
            ])
        }
        let ranked = members.sorted {
            points($0) != points($1) ? points($0) > points($1) : $0.state.session < $1.state.session
        }
        return Build.dump(
            Build.object([
                "class": Build.string(sessionClass),
                "plan": plan.map { Build.optionalString($0.name) },
                "now_ts": Build.integer(nowMs),
                "step": plan.flatMap { plan in current.map { step(plan, $0) } },
                "steps": plan.map { Build.integer($0.steps.count) },
                "time_left_ms": plan.flatMap { plan in current.map { Build.integer(plan.end(ofStep: $0) - nowMs) } },
                "members": Build.array(members.sorted { $0.state.session < $1.state.session }.map(entry)),
                "leaderboard": Build.array(ranked.prefix(10).map(entry)),
                "results": results.flatMap { namingLeaderboard(json_loadb($0, $0.count, 0, nil), name) },
                "stale_ms": Build.integer(max(0, members.map(\.staleMs).max() ?? 0)),
            ]))
    }

    /// A class summary with `name` added to each leaderboard entry whose person has one.
    static func namingLeaderboard(
        _ summary: JanssonBuilder.Value?, _ name: (String) -> String?
    ) -> JanssonBuilder.Value? {
        guard let summary, let leaderboard = json_object_get(summary, "leaderboard") else { return summary }
        for index in 0..<json_array_size(leaderboard) {
            let entry = json_array_get(leaderboard, index)
            guard let person = json_string_value(json_object_get(entry, "person")),
                let display = name(String(cString: person))
            else { continue }
            json_object_set_new(entry, "name", Build.string(display))
        }
        return summary
    }
}
