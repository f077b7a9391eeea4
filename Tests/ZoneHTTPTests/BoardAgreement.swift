import Foundation
import Testing
import ZoneHTTP

/// A tile's number and its zone never contradict: for every member whose heart-rate zones are
/// the system's, the board shows the percentage those zones are computed from (of heart-rate
/// reserve for Karvonen zones, of max otherwise, as `/sessions/{id}` gives them), and the zone
/// the tile shows holds that percentage (zones at 60, 70, 80 and 90 %, one point of rounding).
enum BoardAgreement {
    static func check(_ browser: HeadlessBrowser, port: Int) throws {
        let shown =
            try browser.evaluate(
                "Object.fromEntries([...document.querySelectorAll('.tile')].filter(t => t.dataset.quantity === 'heart_rate')"
                    + ".map(t => [t.dataset.session, [t.querySelector('.percent').textContent, "
                    + "t.querySelector('.basis').textContent, t.dataset.zone]]))") as? [String: [String]] ?? [:]
        var bases: Set<String> = []
        for (session, tile) in shown.sorted(by: { $0.key < $1.key }) {
            let path = "/sessions/" + (session.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? session)
            let response = try LoopbackHTTPClient.get(port: port, path: path)
            let live = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any] ?? [:]
            let heartRate = (live["zone_groups"] as? [String: Any])?["heart_rate"] as? [String: Any]
            let source = (heartRate?["configuration"] as? [String: Any])?["source"] as? String
            guard source == "system", let percent = Int(tile[0].dropLast()) else { continue }
            let expected: (Int?, String) =
                live["percent_hrr"] is NSNull || live["percent_hrr"] == nil
                ? (live["percent_max_hr"] as? Int, "max") : (live["percent_hrr"] as? Int, "HRR")
            #expect(percent == expected.0 && tile[1] == expected.1, "\(session): \(tile) against \(live)")
            bases.insert(tile[1])
            let zone = Int(tile[2]) ?? 0
            let lowest = zone <= 1 ? -1000 : 40 + 10 * zone
            let highest = zone >= 5 ? 1000 : 50 + 10 * zone
            #expect(
                percent >= lowest - 1 && percent <= highest + 1,
                "\(session): \(percent)% \(tile[1]) shown in zone \(zone)")
        }
        // Both kinds of member are on the board, side by side.
        #expect(bases == ["HRR", "max"], "\(bases)")
    }
}
