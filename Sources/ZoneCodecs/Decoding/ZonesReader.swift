import ZoneEngine

/// Reads zone configurations from `session_start.zones` and `profile.preferred`:
/// `{quantity: {"boundaries": [...], "unit": "..."}}`; a null entry counts as absent.
enum ZonesReader {
    struct Result {
        var zones = PerQuantity<ZoneConfiguration?>(repeating: nil)
        var given = PerQuantity(repeating: false)
        /// The first defect found, described.
        var defect: String?
    }

    static func read<Value: JSONValueView>(_ field: Value?, source: ZoneSource) -> Result {
        var result = Result()
        guard let field, field.kind != .null else { return result }
        guard field.kind == .object else {
            result.defect = "zones must be an object"
            return result
        }
        for (name, entry) in field.members where entry.kind != .null {
            guard let quantity = Quantity(name: name) else {
                result.defect = result.defect ?? "unknown quantity '\(name)' in zones"
                continue
            }
            result.given[quantity] = true
            switch configuration(entry, quantity: quantity, source: source) {
            case .success(let configuration): result.zones[quantity] = configuration
            case .failure(let problem): result.defect = result.defect ?? "\(name): \(problem)"
            }
        }
        return result
    }

    static func configuration<Value: JSONValueView>(_ entry: Value, quantity: Quantity, source: ZoneSource)
        -> Swift.Result<ZoneConfiguration, ZoneDefect>
    {
        guard entry.kind == .object else { return .failure(ZoneDefect("must be an object")) }
        guard let boundariesField = entry.presentMember("boundaries"), boundariesField.kind == .array else {
            return .failure(ZoneDefect("'boundaries' must be an array of numbers"))
        }
        var boundaries: [Double] = []
        var allNumbers = true
        boundariesField.forEachElement { element in
            allNumbers = element.isNumber
            if allNumbers { boundaries.append(element.doubleValue ?? .nan) }
            return allNumbers
        }
        guard allNumbers else { return .failure(ZoneDefect("'boundaries' must be an array of numbers")) }
        var unit: String?
        if let unitField = entry.presentMember("unit") {
            guard unitField.kind == .string, let text = unitField.stringValue else {
                return .failure(ZoneDefect("'unit' must be a string"))
            }
            unit = text
        }
        do {
            return .success(
                try ZoneConfiguration.validated(quantity: quantity, source: source, boundaries: boundaries, unit: unit))
        } catch {
            return .failure(ZoneDefect(error.description))
        }
    }

    static func request<Value: JSONValueView>(
        zones field: Value?, person: String?, activity: String?, sessionClass: String?
    ) -> SessionStartRequest {
        let zones = read(field, source: .app)
        return SessionStartRequest(
            person: person, activity: activity, sessionClass: sessionClass, zones: zones.zones, zonesGiven: zones.given,
            zonesDefect: zones.defect)
    }
}

/// Why one zone entry is unusable.
struct ZoneDefect: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
