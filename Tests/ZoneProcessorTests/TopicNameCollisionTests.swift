import Testing
import ZoneProcessor

/// No two applications' derived names can be equal: a group id that would name its state as
/// another group's is refused at start, and one whose topics are named by hand is not.
@Suite struct TopicNameCollisionTests {
    @Test(arguments: ["gym-class", "gym-person", "gym.people", "gym.classes", "studio-3-class"])
    func aGroupEndingInAStagesNameIsRefused(_ group: String) {
        #expect(Topics.collision(groupID: group, changelogNamed: false) != nil)
    }

    @Test(arguments: ["gym", "gym-classic", "classes", "gym-b", "gym_class", "-class"])
    func otherGroupsAreNot(_ group: String) {
        #expect(Topics.collision(groupID: group, changelogNamed: false) == nil)
    }

    /// The upgrade path: a group named so before keeps its names by setting them.
    @Test func aGroupWhoseChangelogIsNamedKeepsIt() {
        #expect(Topics.collision(groupID: "gym-class", changelogNamed: true) == nil)
        #expect(Topics.collision(groupID: "gym.people", changelogNamed: true) != nil, "a consumer group has no setting")
    }

    /// Every derived name of every group differs from every derived name of another group
    /// that start allows.
    @Test func derivedNamesOfAllowedGroupsNeverMeet() {
        let groups = ["gym", "gym-a", "gym-classic", "gym-b-x", "zonestream", "studio-3"]
        var seen: [String: String] = [:]
        for group in groups where Topics.collision(groupID: group, changelogNamed: false) == nil {
            for name in Topics(application: group).internalTopics {
                #expect(seen[name] == nil, "\(name) of \(group) and \(seen[name] ?? "")")
                seen[name] = group
            }
        }
    }
}
