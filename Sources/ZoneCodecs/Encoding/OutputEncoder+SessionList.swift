import CJansson
public import ZoneEngine

extension OutputEncoder {
    /// One page of the group's live sessions (`GET /sessions`), each in brief:
    /// `{"sessions":[{"session","person","name","class","zones":{quantity: index},"latest_ts",
    /// "last_sample_age_ms","stale_ms"}],"matching","next_cursor"}`, a zone's index counted from
    /// 1 as in the outputs (null before a zone is known). `stale_ms` is how long ago the
    /// session's owner took the state shown. `matching` counts every live session with the
    /// page's prefix; `next_cursor` is the id to pass as `cursor` for the next page, null on the
    /// last. `nowMs` is the wall clock the sample ages are measured against.
    public static func liveSessionPage(
        _ page: [(state: LiveSessionState, staleMs: Int64)], matching: Int, nextCursor: String?, nowMs: Int64
    ) -> [UInt8] {
        let sessions = page.map { state, staleMs in
            Build.object([
                "session": Build.string(state.session),
                "person": Build.optionalString(state.person),
                "name": Build.optionalString(state.name),
                "class": Build.optionalString(state.sessionClass),
                "zones": keyed(
                    state.zoneGroups.map { group in
                        (group.quantity.name, group.currentZone.map { Build.integer($0 + 1) } ?? json_null())
                    }),
                "latest_ts": Build.integer(state.latestTimestamp),
                "last_sample_age_ms": Build.integer(max(0, nowMs - state.latestTimestamp)),
                "stale_ms": Build.integer(max(0, staleMs)),
            ])
        }
        return Build.dump(
            Build.object([
                "sessions": Build.array(sessions), "matching": Build.integer(matching),
                "next_cursor": Build.optionalString(nextCursor),
            ]))
    }
}
