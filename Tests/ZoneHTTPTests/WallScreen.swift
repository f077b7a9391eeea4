import Foundation
import Testing
import ZoneTestSupport

/// What a wall screen of the load generator's class, 100 seconds in, must show at one size:
/// every tile on screen and whole, legible lines, each class's step in the header, the zones in
/// use in the legend, names and targets on the tiles.
struct WallScreen {
    let members: Int
    /// Members whose profile the test published (they show a name and a percentage).
    let withProfile: Int
    /// The classes the members belong to, each following its coach's plan.
    let classes: [String]

    /// The elements matching `selector` that are shown and hold text.
    static func shown(_ selector: String) -> String {
        "[...document.querySelectorAll('\(selector)')].filter(e => getComputedStyle(e).display !== 'none' && e.textContent.trim())"
    }

    /// The smallest font size of the shown elements matching `selector` (1000 when none is).
    static func smallestFont(_ browser: HeadlessBrowser, _ selector: String) throws -> Double {
        try browser.evaluate("Math.min(1000, ...\(shown(selector)).map(e => parseFloat(getComputedStyle(e).fontSize)))")
            as? Double ?? 0
    }

    static func largestFont(_ browser: HeadlessBrowser, _ selector: String) throws -> Double {
        try browser.evaluate("Math.max(0, ...\(shown(selector)).map(e => parseFloat(getComputedStyle(e).fontSize)))")
            as? Double ?? 0
    }

    func check(_ browser: HeadlessBrowser, width: Int) throws {
        let at = "\(members) members at \(width) px"
        #expect(
            try browser.wait(seconds: 30, until: "document.querySelectorAll('.tile').length === \(members)"), "\(at)")
        // Every sample is in: the class clock reads the class's 100 s.
        #expect(
            try browser.wait(seconds: 20, until: "document.getElementById('clock').textContent === 'class 1:39'"),
            "clock: \(String(describing: try? browser.evaluate("document.getElementById('clock').textContent")))")
        // ?sort=zone: the highest zones first.
        let zones = "[...document.querySelectorAll('.tile')].map(t => Number(t.dataset.zone))"
        #expect(
            try browser.evaluate("\(zones).every((zone, i, all) => i === 0 || all[i - 1] >= zone)") as? Bool == true)
        // Members with a profile show a percentage; those without do not.
        let percents =
            "[...document.querySelectorAll('.tile .percent')].filter(p => /^\\d+%$/.test(p.textContent)).length"
        #expect(
            try browser.wait(seconds: 10, until: "\(percents) === \(withProfile)"),
            "tiles with percent: \(String(describing: try? browser.evaluate(percents))) of \(withProfile), \(at)")
        // Following the plan: 100 s into the 300 s class is the second interval's recovery (zones
        // 2-3), so every tile shows its target and where it stands.
        let targets =
            "[...document.querySelectorAll('.tile')].filter(t => ['in','below','above'].includes(t.dataset.target)).length"
        #expect(
            try browser.wait(seconds: 10, until: "\(targets) === \(members)"),
            "tiles with a target: \(String(describing: try? browser.evaluate(targets))) of \(members), \(at)")
        _ = try browser.wait(seconds: 1, until: "false")  // one more frame for the layout
        try checkFits(browser, at: at)
        try checkLegible(browser, width: width, at: at)
        try checkHeaderAndLegend(browser, at: at)
        // Members with a profile show their display name and their points so far (and calories
        // where the tiles are large enough).
        let named = "[...document.querySelectorAll('.tile .name')].filter(n => / [A-Z]\\.$/.test(n.textContent)).length"
        #expect(try browser.evaluate(named) as? Int == withProfile, "named tiles, \(at)")
        let points =
            "[...document.querySelectorAll('.tile .effort')].filter(e => /^\\d+\\.\\d pts · \\d+ kcal$/.test(e.title)).length"
        #expect(try browser.evaluate(points) as? Int == withProfile, "tiles with points and calories, \(at)")
        let marked =
            "[...document.querySelectorAll('.tile')].filter(t => t.querySelectorAll('.minutes div.target').length === 2)"
            + ".length"
        #expect(try browser.evaluate(marked) as? Int == members, "zone targets marked on the bars, \(at)")
    }

    /// No scrollbar; every tile on screen; nothing of a tile outside it.
    func checkFits(_ browser: HeadlessBrowser, at: String) throws {
        let noScrollbar =
            "document.documentElement.scrollHeight <= window.innerHeight && document.documentElement.scrollWidth <= window.innerWidth"
        #expect(try browser.evaluate(noScrollbar) as? Bool == true, "scrollbar, \(at)")
        let allOnScreen =
            "[...document.querySelectorAll('.tile')].every(t => { const r = t.getBoundingClientRect(); "
            + "return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5 && r.height >= 20; })"
        #expect(try browser.evaluate(allOnScreen) as? Bool == true, "tiles off screen, \(at)")
        // The percentage and what it is of are not cut off, however small the tiles.
        for selector in [".percent", ".basis"] {
            let inside =
                "[...document.querySelectorAll('.tile')].every(t => { const p = t.querySelector('\(selector)').getBoundingClientRect(); "
                + "const r = t.getBoundingClientRect(); return p.width === 0 || p.right <= r.right + 0.5; })"
            #expect(try browser.evaluate(inside) as? Bool == true, "\(selector) cut off, \(at)")
        }
        // Every percentage says what it is of.
        let labelled =
            "[...document.querySelectorAll('.tile')].every(t => !t.querySelector('.percent').textContent || "
            + "(getComputedStyle(t.querySelector('.basis')).display !== 'none' && /^(HRR|max|FTP)$/.test(t.querySelector('.basis').textContent)))"
        #expect(try browser.evaluate(labelled) as? Bool == true, "a percentage without its basis, \(at)")
        // The minute bars and their labels end inside the tile, above its padding.
        for selector in [".tile .minutes", ".tile .minutes-labels"] {
            let inside =
                "\(Self.shown(selector)).every(e => { const r = e.getBoundingClientRect(), t = e.closest('.tile').getBoundingClientRect(); "
                + "return r.height > 0 && r.bottom <= t.bottom - 1; })"
            #expect(try browser.evaluate(inside) as? Bool == true, "\(selector) cut off, \(at)")
        }
    }

    /// Names, zone, effort and target at least 14 px, the value 22 px, each shown whole, on a
    /// screen 1920 pixels wide, and as much larger as the screen is wider; the step and the
    /// target state at least as large as the zone label.
    func checkLegible(_ browser: HeadlessBrowser, width: Int, at: String) throws {
        let pixel = Double(width) / 1920
        for (selector, minimum) in [
            (".tile .name", 14.0), (".tile .zone", 14.0), (".tile .effort", 14.0), (".tile .value", 22.0),
            (".tile .target", 14.0), (".tile .minutes-labels", 10.0),
        ] {
            let size = try Self.smallestFont(browser, selector)
            #expect(size >= minimum * pixel - 0.01, "\(selector): \(size) px, \(at)")
            let whole =
                "\(Self.shown(selector)).every(e => { const r = e.getBoundingClientRect(), t = e.closest('.tile').getBoundingClientRect(); "
                + "return r.height >= 0.9 * parseFloat(getComputedStyle(e).fontSize) && r.bottom <= t.bottom + 0.5; })"
            #expect(try browser.evaluate(whole) as? Bool == true, "\(selector) cut off, \(at)")
        }
        let zoneLabel = try Self.largestFont(browser, ".tile .zone")
        #expect(try Self.smallestFont(browser, "#steps div") >= zoneLabel, "step smaller than the zone, \(at)")
        #expect(try Self.smallestFont(browser, ".tile .target") >= zoneLabel, "target smaller than the zone, \(at)")
    }

    /// One header line per class: its step and the time left; a legend of the zones in use and
    /// of the outline a tile off its target wears.
    func checkHeaderAndLegend(_ browser: HeadlessBrowser, at: String) throws {
        let lines =
            try browser.evaluate(
                "[...document.querySelectorAll('#steps div')].map(d => [d.dataset.class, d.textContent])")
            as? [[String]] ?? []
        #expect(Set(lines.map { $0[0] }) == Set(classes) && lines.count == classes.count, "\(lines), \(at)")
        for line in lines {
            #expect(line[1] == "\(line[0])recovery · step 3 of 9 · 0:01 left", "\(line), \(at)")
        }
        let zonesInUse = try browser.evaluate(
            "Math.max(...[...document.querySelectorAll('.tile')].map(t => t.querySelectorAll('.minutes div').length))")
        let legendZones = try browser.evaluate("document.querySelectorAll('#legend span:not(.off)').length")
        #expect(legendZones as? Int == zonesInUse as? Int, "legend \(String(describing: legendZones)), \(at)")
        let offTarget = try browser.evaluate(
            "[...document.querySelectorAll('.tile')].some(t => t.dataset.target === 'below' || t.dataset.target === 'above')"
        )
        #expect(
            try browser.evaluate("document.querySelectorAll('#legend span.off').length === 1") as? Bool
                == (offTarget as? Bool), "\(at)")
    }
}
