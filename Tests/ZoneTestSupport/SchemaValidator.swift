public import Foundation

/// Validates JSON documents against the schemas in schemas/ with the `jsonschema` validator
/// from PyPI (installed into .venv by `scripts/bootstrap.sh --noida-db`), through
/// scripts/validate-json.py: one child process per call, every document on its standard input.
public enum SchemaValidator {
    public enum Failure: Error, CustomStringConvertible {
        case validatorMissing(String)
        case failed(schema: String, report: String)

        public var description: String {
            switch self {
            case .validatorMissing(let path):
                "\(path) not found: run scripts/bootstrap.sh --noida-db (installs jsonschema)"
            case .failed(let schema, let report): "documents do not match \(schema):\n\(report)"
            }
        }
    }

    /// The repository.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Throws unless every document matches `schema` (the topic's name: `zone-changes`, ...);
    /// with `expectInvalid`, unless none does.
    public static func validate(_ documents: [String], schema: String, expectInvalid: Bool = false) throws {
        try validate(
            documents, schemaFile: root.appendingPathComponent("schemas/\(schema).schema.json"),
            expectInvalid: expectInvalid)
    }

    /// Throws unless every document matches the JSON Schema in `schemaFile`; with
    /// `expectInvalid`, unless none does.
    public static func validate(_ documents: [String], schemaFile: URL, expectInvalid: Bool = false) throws {
        let python = root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Failure.validatorMissing(python.path)
        }
        let process = Process()
        process.executableURL = python
        process.arguments =
            [
                root.appendingPathComponent("scripts/validate-json.py").path,
                schemaFile.path,
            ] + (expectInvalid ? ["--expect-invalid"] : [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Documents are one per line: a raw newline inside one (only in malformed input) is a space.
        let text = documents.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
        let writer = Thread {
            input.fileHandleForWriting.write(Data(text.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure.failed(schema: schemaFile.path, report: report) }
    }
}
