"""The peers' shared job: the heart-rate half of ZoneStream's, as one pure step per event.

Every peer keeps, per session (the Kafka key), its heart-rate zone boundaries (the
session_start's app zones, else the contract's default system zones), its current zone, the
last sample's time and the time credited to each zone, in its engine's own keyed state, and
calls `step` with that state and each event. `step` returns the new state (None: forget the
session) and the zone changes to produce: a `zone_change` with the cumulative zone durations
whenever a session's zone changes, the first sample included.
"""

DEFAULT_BOUNDARIES = [91, 114, 136, 158]  # the contract's system zones without metrics
MAX_GAP_MS = 10_000


def zone_of(boundaries, value):
    """Zone k (from 1) holds min <= v < max; a value equal to a boundary is in the upper zone."""
    index = 1
    for boundary in boundaries:
        if value < boundary:
            break
        index += 1
    return index


def step(state, event):
    """The session's next state and its zone changes for one event (a parsed JSON object)."""
    kind = event.get("type")
    if kind == "session_start":
        zones = (event.get("zones") or {}).get("heart_rate") or {}
        state = dict(state or {})
        if zones.get("boundaries"):
            state["boundaries"] = zones["boundaries"]
        return state, []
    if kind == "session_end":
        return None, []
    if kind != "sample" or event.get("quantity") != "heart_rate" or "value" not in event:
        return state, []
    state = dict(state or {})
    boundaries = state.get("boundaries", DEFAULT_BOUNDARIES)
    ts, value = event["ts"], event["value"]
    last_ts = state.get("last_ts")
    if last_ts is not None and ts <= last_ts:
        return state, []
    durations = list(state.get("durations") or [0] * (len(boundaries) + 1))
    previous = state.get("zone")
    if previous is not None and last_ts is not None and ts > last_ts:
        durations[previous - 1] += min(ts - last_ts, MAX_GAP_MS)
    zone = zone_of(boundaries, value)
    state["last_ts"] = ts
    state["durations"] = durations
    if zone == previous:
        return state, []
    state["zone"] = zone
    return state, [{
        "schema": 1, "type": "zone_change", "event_id": f"{event['session']}/heart_rate/{ts}",
        "session": event["session"], "quantity": "heart_rate", "ts": ts,
        "previous_zone": previous, "current_zone": zone,
        "zone_durations": [{"index": i + 1, "duration_ms": d} for i, d in enumerate(durations)],
    }]
