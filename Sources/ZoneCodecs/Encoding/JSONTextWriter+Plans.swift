import ZoneEngine

/// The parts of plans that finished workouts and target changes share: a step's place in the
/// plan and a target as the contract reports it (zones as sent, value bounds in the
/// quantity's unit).
extension JSONTextWriter {
    /// `"index":i,"purpose":"…","start_ts":…,"end_ts":…` of step `index` (0-based).
    mutating func appendStepFields(_ plan: WorkoutPlan, step index: Int) {
        appendStepFields(
            index: index, purpose: plan.steps[index].purpose, start: plan.start(ofStep: index),
            end: plan.end(ofStep: index))
    }

    /// The same fields from their values.
    mutating func appendStepFields(index: Int, purpose: PlanStep.Purpose, start: Int64, end: Int64) {
        append(#""index":"#)
        appendInteger(Int64(index + 1))
        append(#","purpose":""#)
        appendUnescaped(purpose.rawValue)
        append(#"","start_ts":"#)
        appendInteger(start)
        append(#","end_ts":"#)
        appendInteger(end)
    }

    /// `{"zones":[lo,hi]}`, or `{"min":…,"max":…}` with the bounds it has.
    mutating func appendTarget(_ target: PlanTarget) {
        switch target {
        case .zones(let low, let high):
            append(#"{"zones":["#)
            appendInteger(Int64(low))
            append(",")
            appendInteger(Int64(high))
            append("]}")
        case .values(let minimum, let maximum):
            append("{")
            if let minimum {
                append(#""min":"#)
                appendNumber(minimum)
            }
            if let maximum {
                if minimum != nil { append(",") }
                append(#""max":"#)
                appendNumber(maximum)
            }
            append("}")
        }
    }

    /// A finished workout's `plan`: null, or the plan with every step's counts and compliance.
    mutating func appendPlanSummary(_ summary: PlanSummary?) {
        guard let summary else { return append("null") }
        let plan = summary.plan
        append(#"{"plan":"#)
        if let name = plan.name { appendString(name) } else { append("null") }
        append(#","source":""#)
        appendUnescaped(plan.source.rawValue)
        append(#"","start_ts":"#)
        appendInteger(plan.anchor)
        append(#","end_ts":"#)
        appendInteger(plan.end)
        append(#","steps":["#)
        for index in plan.steps.indices {
            if index > 0 { append(",") }
            append("{")
            appendStepFields(plan, step: index)
            append(#","targets":{"#)
            var first = true
            for quantity in Quantity.allCases {
                guard let target = plan.steps[index].targets[quantity] else { continue }
                if !first { append(",") }
                first = false
                append("\"")
                appendUnescaped(quantity.name)
                append(#"":{"target":"#)
                appendTarget(target)
                append(#","in_ms":"#)
                appendInteger(summary.milliseconds(step: index, quantity, .in))
                append(#","below_ms":"#)
                appendInteger(summary.milliseconds(step: index, quantity, .below))
                append(#","above_ms":"#)
                appendInteger(summary.milliseconds(step: index, quantity, .above))
                append("}")
            }
            append("}}")
        }
        append(#"],"compliance":{"#)
        for (position, quantity) in summary.targetedQuantities.enumerated() {
            if position > 0 { append(",") }
            append("\"")
            appendUnescaped(quantity.name)
            append(#"":"#)
            appendCompliance(summary.complianceFraction(quantity))
        }
        append("}}")
    }

    /// A ratio of milliseconds in hundredths (`0.88`, `1.0`), or null when nothing was counted.
    mutating func appendCompliance(_ fraction: (inMs: Int64, countedMs: Int64)?) {
        guard let fraction else { return append("null") }
        appendHundredths(PlanSummary.hundredths(fraction.inMs, over: fraction.countedMs))
    }
}
