import ArgumentParser
import ZoneHTTP

/// `zonestream probe`: asks a running instance's endpoint on this machine whether it is ready
/// (or up), and exits 0 if it answered 200, else 1. Health checks use it (the Dockerfile's
/// HEALTHCHECK, Compose), so they need no shell, curl or bash in the image.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Ask the local endpoint's /ready (or /health with --live); exit 0 when it answers 200, else 1.")

    @OptionGroup var settings: SettingsOptions

    @Flag(help: "Ask /health (the process is up) instead of /ready (consuming).")
    var live = false

    @Option(help: "Port of the endpoint (default: the http.port setting).")
    var port: Int?

    @Option(help: "Seconds to wait for the answer.")
    var timeoutSeconds = 3

    func validate() throws {
        try requireOption("--timeout-seconds", timeoutSeconds, in: 1...60)
        if let port { try requireOption("--port", port, in: 1...65_535) }
    }

    func run() throws {
        let port = try port ?? settings.load().integer("http.port")
        let path = live ? "/health" : "/ready"
        do {
            let response = try LoopbackHTTPClient.get(port: port, path: path, timeoutSeconds: timeoutSeconds)
            print("\(path): \(response.status) \(response.body)")
            if response.status != 200 { throw ExitCode.failure }
        } catch let error as LoopbackHTTPClient.Failure {
            print("\(path): no answer from 127.0.0.1:\(port): \(error)")
            throw ExitCode.failure
        }
    }
}
