import CFuzzerDriver
import Glibc
import ZoneSupport

/// The decoder's fuzz target: every input, as a record value with and without a key, must
/// get the same verdict from the fast decoder and the jansson reference, and crash neither.
/// SwiftPM links its own `main`, so this one hands the command line to libFuzzer's driver.
@main
enum DecoderFuzzer {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, count in
                let value = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
                for key in [nil, Array("s".utf8)] as [[UInt8]?] {
                    if case .differ(let difference) = DecoderAgreement.check(value, key: key) {
                        // A crash is how a fuzz target reports a finding; libFuzzer saves the input.
                        fatalError(
                            "decoders differ on \(String(decoding: value, as: UTF8.self).debugDescription): \(difference)"
                        )
                    }
                }
                return 0
            })
    }
}
