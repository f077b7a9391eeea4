import ZoneCodecs
package import ZoneEngine

/// Decodes `workout-events` values through jansson's DOM and the same validator as
/// ``WorkoutEventDecoder``: the reference in the differential test, and a slow path
/// for tools. Allocates a DOM per message.
package struct JanssonEventDecoder {
    package var maxMessageBytes = 65_536

    package init(maxMessageBytes: Int = 65_536) { self.maxMessageBytes = maxMessageBytes }

    package func decode(value: UnsafeRawBufferPointer?, key: UnsafeRawBufferPointer?)
        -> (result: Result<WorkoutEvent, Rejection>, parseError: JanssonParseError?)
    {
        guard let value else { return (.failure(Rejection(.malformedJSON, "record has no value")), nil) }
        guard value.count <= maxMessageBytes else {
            return (.failure(Rejection(.tooLarge, "value of \(value.count) bytes is over \(maxMessageBytes)")), nil)
        }
        switch JanssonDocument.parse(value) {
        case .failure(let error):
            return (.failure(Rejection(.malformedJSON, error.message)), error)
        case .success(let document):
            return (EventValidator.validate(JanssonValue(pointer: document.root), key: key), nil)
        }
    }
}
