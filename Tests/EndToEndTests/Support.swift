import Backstop
import BackstopTestSupport
import BadBackend

/// The study group BadBackend serves, as an app models it.
struct StudyGroup: Decodable, Sendable, Equatable {
    enum Role: String, Decodable, Sendable, UnknownCaseRepresentable {
        case owner, member, unknown
        static var unknownCase: Role { .unknown }
    }

    struct Member: Decodable, Sendable, Equatable {
        var id: Int
        var nickname: String
    }

    var id: Int
    var name: String
    var teamCode: String
    var role: Role
    var memberCount: Int
    var members: [Member]

    /// Study group 7 as served clean.
    static let seven = StudyGroup(
        id: 7, name: "Calculus B", teamCode: "K7Q2", role: .owner, memberCount: 3,
        members: [Member(id: 1, nickname: "Ada"), Member(id: 2, nickname: "Grace"), Member(id: 3, nickname: "Linus")])
}
