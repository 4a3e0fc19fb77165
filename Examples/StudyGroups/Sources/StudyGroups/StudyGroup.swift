/// A study group, as `GET b/study-groups` lists it.
public struct StudyGroup: Decodable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var teamCode: String
    public var memberCount: Int

    public init(id: Int, name: String, teamCode: String, memberCount: Int) {
        self.id = id
        self.name = name
        self.teamCode = teamCode
        self.memberCount = memberCount
    }
}
