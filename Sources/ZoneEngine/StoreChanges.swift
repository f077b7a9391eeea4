/// What a store changed between two drains.
struct StoreChanges {
    var updated: [String] = []
    var finished: [(id: String, wallMs: Int64)] = []
    var forgotten: [String] = []
}
