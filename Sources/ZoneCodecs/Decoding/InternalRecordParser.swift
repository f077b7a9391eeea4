import ZoneEngine

/// What every decoder of a record from one of ZoneStream's own topics (the stages'
/// repartition topics) does first: a record without a value, or over `maximumBytes`, or not
/// strict JSON, is refused with its reason before the record's own fields are read.
enum InternalRecordParser {
    static func parse<Output>(
        _ value: UnsafeRawBufferPointer?, maximumBytes: Int, tape: inout JSONTape,
        read: (TapeValue) -> Result<Output, Rejection>
    ) -> Result<Output, Rejection> {
        guard let value else { return .failure(Rejection(.missingField, "the record has no value")) }
        guard value.count <= maximumBytes else {
            return .failure(Rejection(.tooLarge, "\(value.count) bytes, at most \(maximumBytes)"))
        }
        do {
            try StrictJSONParser.parse(value, into: &tape)
        } catch {
            return .failure(Rejection(.malformedJSON, "\(error.message) at byte \(error.offset)"))
        }
        return tape.nodes.withUnsafeBufferPointer { nodes in read(TapeValue(nodes: nodes, bytes: value, index: 0)) }
    }
}
