import Foundation

/// A simulated gym class: members whose heart rate (and, on bikes, power) follow a class
/// plan of warm-up, intervals, recovery and cool-down, the way bodies do (lagging the
/// effort, with noise). Deterministic for a seed. Produces contract JSON events.
public struct GymClass: Sendable {
    public struct Member: Sendable {
        public let session: String
        public let person: String?
        public let name: String
        let age: Double
        let restingHR: Double
        let ftp: Double?
        var heartRate: Double
        var pause: ClosedRange<Int>?
        var multiSport = false
        var appZones: [Double]?
    }

    /// One record to produce: key and JSON value.
    public struct Record: Sendable {
        public let topic: String
        public let key: String
        public let value: String

        public init(topic: String, key: String, value: String) {
            self.topic = topic
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]
    /// Names the classes: `<session prefix>/spin` and `<session prefix>/hiit`.
    private var classPrefix = "studio"
    public let durationSeconds: Int
    public let startMs: Int64
    private var random: SplitMix64

    public init(memberCount: Int, durationSeconds: Int, seed: UInt64, startMs: Int64) {
        var random = SplitMix64(seed: seed)
        let names = ["maria", "tomas", "lena", "ahmed", "yuki", "sofia", "omar", "ines", "li", "noah", "emma", "raj"]
        members = (0..<memberCount).map { index in
            let name = "\(names[index % names.count])\(index / names.count == 0 ? "" : String(index / names.count))"
            let age = Double(22 + Int(random.next() % 40))
            return Member(
                session: "class-\(index)", person: index % 5 == 4 ? nil : name, name: name, age: age,
                restingHR: Double(50 + Int(random.next() % 20)),
                ftp: index % 2 == 0 ? Double(160 + Int(random.next() % 160)) : nil,
                heartRate: Double(75 + Int(random.next() % 15)))
        }
        if members.count > 1 { members[1].pause = (durationSeconds / 2)...(durationSeconds / 2 + 30) }
        if members.count > 2 { members[2].multiSport = true }
        if members.count > 3 { members[3].appZones = [100, 125, 145, 160, 175] }
        self.durationSeconds = durationSeconds
        self.startMs = startMs
        self.random = random
    }

    /// Gives every session id and person id a prefix (session ids stay short: prefix-index),
    /// so runs with other seeds never share a person with other metrics, and classes that
    /// share a person prefix share their members.
    public mutating func renameSessions(prefix: String, personPrefix: String? = nil) {
        let personPrefix = personPrefix ?? prefix
        // A class of its own per run and wave: a class's plan is read as of its sessions'
        // first events, or later, so a plan republished for the next wave could meet the
        // sessions of this one (contract, section 1).
        classPrefix = prefix
        for index in members.indices {
            let member = members[index]
            members[index] = Member(
                session: "\(prefix)-\(index)", person: member.person.map { "\(personPrefix)-\($0)" }, name: member.name,
                age: member.age,
                restingHR: member.restingHR, ftp: member.ftp, heartRate: member.heartRate, pause: member.pause,
                multiSport: member.multiSport, appZones: member.appZones)
        }
    }

    /// Profiles for members with a person: display name, age, resting rate, weight and sex
    /// (so calories are counted), FTP for cyclists.
    public func profiles(topic: String) -> [Record] {
        members.enumerated().compactMap { index, member in
            guard let person = member.person else { return nil }
            var fields = [
                "\"person\":\"\(person)\"", "\"name\":\"\(Self.displayName(member.name, index: index))\"",
                "\"age\":\(Int(member.age))", "\"resting_hr\":\(Int(member.restingHR))",
                "\"weight_kg\":\(55 + (index * 7) % 40)", "\"sex\":\"\(index % 2 == 0 ? "female" : "male")\"",
            ]
            if let ftp = member.ftp { fields.append("\"ftp\":\(Int(ftp))") }
            return Record(topic: topic, key: person, value: "{\(fields.joined(separator: ","))}")
        }
    }

    /// A member's name as a board shows it: `maria3` becomes `Maria C.` (the surname's initial
    /// from the index, so names in a large class stay distinct).
    static func displayName(_ name: String, index: Int) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let base = name.prefix { $0.isLetter }
        return base.prefix(1).uppercased() + base.dropFirst() + " " + String(letters[index % letters.count]) + "."
    }

    /// The classes the members belong to, each once, in the members' order.
    public var classNames: [String] {
        var names: [String] = []
        for member in members where !names.contains(className(of: member)) { names.append(className(of: member)) }
        return names
    }

    /// The class a member's session belongs to: bikes in the spin studio, the rest in HIIT.
    func className(of member: Member) -> String {
        member.ftp == nil ? "\(classPrefix)/hiit" : "\(classPrefix)/spin"
    }

    /// Whether a member brings a plan of their own in the session start (one in seven).
    static func hasOwnPlan(_ index: Int) -> Bool { index % 7 == 5 }

    /// The coach's plans of the class's studios on `class-plans`, anchored at the class's
    /// start and following its effort curve: warm-up in zones 2-3, intervals of 20 s on (zones
    /// 4-5, and on bikes at least 200 W) and 20 s off (zones 2-3), recovery in zones 1-2, and
    /// a cool-down without a target.
    public func classPlans(topic: String) -> [Record] {
        let total = max(5, durationSeconds)
        let warmup = max(1, total / 5)
        let intervals = max(1, total / 2 / 40)
        let recovery = max(1, total * 15 / 100)
        let cooldown = max(1, total - warmup - intervals * 40 - recovery)
        func step(_ purpose: String, _ seconds: Int, _ target: String?) -> String {
            "{\"purpose\":\"\(purpose)\",\"duration_ms\":\(seconds * 1000)"
                + (target.map { ",\"target\":{\($0)}" } ?? "") + "}"
        }
        return [(false, "hiit"), (true, "spin")].map { bikes, studio in
            let power = bikes ? ",\"cycling_power\":{\"min\":200}" : ""
            let steps = [
                step("warmup", warmup, "\"heart_rate\":{\"zones\":[2,3]}"),
                "{\"repeat\":\(intervals),\"steps\":["
                    + step("work", 20, "\"heart_rate\":{\"zones\":[4,5]}\(power)") + ","
                    + step("recovery", 20, "\"heart_rate\":{\"zones\":[2,3]}") + "]}",
                step("recovery", recovery, "\"heart_rate\":{\"zones\":[1,2]}"),
                step("cooldown", cooldown, nil),
            ]
            let name = "\(classPrefix)/\(studio)"
            return Record(
                topic: topic, key: name,
                value:
                    "{\"class\":\"\(name)\",\"start_ts\":\(startMs),\"plan\":\"\(studio)-intervals\",\"steps\":[\(steps.joined(separator: ","))]}"
            )
        }
    }

    /// The class plan: effort from 0 (rest) to 1 (all out) at a second of the class.
    public func effort(at second: Int) -> Double {
        let progress = Double(second) / Double(max(1, durationSeconds))
        switch progress {
        case ..<0.2: return 0.45 + progress  // warm-up
        case ..<0.7: return (second / 20) % 2 == 0 ? 0.9 : 0.65  // intervals, 20 s on, 20 s off
        case ..<0.85: return 0.6  // recovery
        default: return 0.45  // cool-down
        }
    }

    /// The events of one second of the class, for every member.
    public mutating func events(at second: Int, topic: String) -> [Record] {
        let ts = startMs + Int64(second) * 1000
        var records: [Record] = []
        for index in members.indices {
            let member = members[index]
            func record(_ body: String) {
                records.append(
                    Record(
                        topic: topic, key: member.session,
                        value: "{\"type\":\(body),\"session\":\"\(member.session)\",\"ts\":\(ts)}"))
            }
            if second == 0 {
                var start = "\"session_start\""
                if let person = member.person { start += ",\"person\":\"\(person)\"" }
                start +=
                    ",\"activity\":\"\(member.multiSport ? "multisport" : (member.ftp == nil ? "running" : "cycling"))\""
                start += ",\"class\":\"\(className(of: member))\""
                if Self.hasOwnPlan(index) {
                    start +=
                        ",\"plan\":{\"plan\":\"steady\",\"steps\":[{\"purpose\":\"work\",\"duration_ms\":\(min(86_400, max(1, durationSeconds)) * 1000),"
                        + "\"target\":{\"heart_rate\":{\"zones\":[2,3]}}}]}"
                }
                if let zones = member.appZones {
                    start +=
                        ",\"zones\":{\"heart_rate\":{\"boundaries\":[\(zones.map { String(Int($0)) }.joined(separator: ","))]}}"
                }
                record(start)
                if member.multiSport { record("\"activity_start\",\"activity\":\"cycling\"") }
            }
            if member.multiSport && second == durationSeconds / 2 {
                record("\"activity_start\",\"activity\":\"running\"")
            }
            if let pause = member.pause, second == pause.lowerBound { record("\"pause\"") }
            if let pause = member.pause, second == pause.upperBound { record("\"resume\"") }
            if second == durationSeconds {
                record("\"session_end\"")
                continue
            }
            let maxHR = 208 - 0.7 * member.age
            let target = member.restingHR + effort(at: second) * (maxHR - member.restingHR)
            let noise = Double(Int(random.next() % 5)) - 2
            members[index].heartRate += (target - member.heartRate) * 0.08 + noise * 0.5
            let heartRate = (members[index].heartRate * 10).rounded() / 10
            record("\"sample\",\"quantity\":\"heart_rate\",\"value\":\(heartRate)")
            if let ftp = member.ftp, !(member.multiSport && second >= durationSeconds / 2) {
                let power = max(0, (ftp * (effort(at: second) * 1.25) + Double(Int(random.next() % 21)) - 10).rounded())
                record("\"sample\",\"quantity\":\"cycling_power\",\"value\":\(Int(power))")
            }
        }
        return records
    }
}
