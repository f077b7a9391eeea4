public import Foundation
import Testing
import Yams

/// The repository's own files as the deployment and documentation tests read them.
public enum RepositoryFiles {
    /// The repository's root.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The YAML map in the file at `name`, relative to the root.
    public static func yaml(_ name: String) throws -> [String: Any] {
        let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
        return try #require(try Yams.load(yaml: text) as? [String: Any])
    }

    /// Every key of config/zonestream.yaml, dotted (the settings ZoneStream knows).
    public static func settingKeys() throws -> Set<String> { dottedKeys(try yaml("config/zonestream.yaml")) }

    /// The dotted paths of a YAML map's leaves (`http.port`).
    public static func dottedKeys(_ root: Any) -> Set<String> {
        var keys: Set<String> = []
        func walk(_ node: Any, _ prefix: String) {
            if let map = node as? [String: Any], !map.isEmpty {
                for (key, value) in map { walk(value, prefix.isEmpty ? key : "\(prefix).\(key)") }
            } else {
                keys.insert(prefix)
            }
        }
        walk(root, "")
        return keys
    }
}
