extension SessionStore {
    /// Applies `event` with answers read from fixed tables, every new session admitted: how the
    /// load generator's oracle, the tests and the benchmarks drive the engine without a
    /// processor.
    public mutating func handle(
        _ event: WorkoutEvent, wallMs: Int64, profiles: [String: PersonProfile],
        classPlans: [String: WorkoutPlan] = [:], outputs: inout EngineOutputs
    ) {
        guard let query = handle(event, wallMs: wallMs, outputs: &outputs) else { return }
        let answers = TableAnswers(
            profile: query.person.flatMap { profiles[$0] }, classPlan: query.sessionClass.flatMap { classPlans[$0] })
        handle(event, wallMs: wallMs, answers: answers, outputs: &outputs)
    }
}
