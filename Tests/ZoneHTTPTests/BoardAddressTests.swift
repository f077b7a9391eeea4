import Testing

@testable import ZoneHTTP

/// The board's address as logged and printed: one a browser can open.
@Suite struct BoardAddressTests {
    @Test func aWildcardBindIsNamedByTheMachine() {
        #expect(OperatorServer.boardAddress(host: "0.0.0.0", port: 8080, machine: "gym-1") == "http://gym-1:8080/board")
        #expect(OperatorServer.boardAddress(host: "::", port: 8080, machine: "gym-1") == "http://gym-1:8080/board")
    }

    @Test func aNamedHostIsKeptAndAnIPv6OneBracketed() {
        #expect(OperatorServer.boardAddress(host: "127.0.0.1", port: 9, machine: "x") == "http://127.0.0.1:9/board")
        #expect(OperatorServer.boardAddress(host: "::1", port: 9, machine: "x") == "http://[::1]:9/board")
    }
}
