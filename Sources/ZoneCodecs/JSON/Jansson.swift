import CJansson

/// Facts about the jansson this process runs with.
public enum Jansson {
    /// The version of the headers ZoneStream was built against (`2.14`).
    public static let version = JANSSON_VERSION
}
