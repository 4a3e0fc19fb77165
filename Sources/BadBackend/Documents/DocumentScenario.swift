#if OpenAPI
    import BackstopOpenAPI
#endif

/// A misbehaviour the document server applies to one operation's answer: dirt made where the
/// document's schema says each value is, an answer trickled out, or one of BadBackend's own
/// scenarios that need no resource of its own (codes, statuses, broken responses).
enum DocumentScenario: Sendable, Hashable {
    case dirt(DocumentDirt)
    case trickle
    case scenario(Scenario)

    /// Every scenario, in the order `GET /scenarios` lists them.
    static let all: [DocumentScenario] =
        DocumentDirt.allCases.map(DocumentScenario.dirt) + [.trickle]
        + Scenario.all.filter { scenario in
            switch scenario.group {
            case .dirtyData, .moduleCode: false
            default: true
            }
        }.map(DocumentScenario.scenario)

    /// The scenario with this name.
    init?(name: String) {
        guard let match = Self.all.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// `numbers-as-strings`, `trickle`, `http-503`.
    var name: String {
        switch self {
        case .dirt(let dirt): dirt.rawValue
        case .trickle: "trickle"
        case .scenario(let scenario): scenario.name
        }
    }

    /// What kind of misbehaviour it is, by BadBackend's groups.
    var group: String {
        switch self {
        case .dirt: Scenario.Group.dirtyData.rawValue
        case .trickle: Scenario.Group.brokenResponse.rawValue
        case .scenario(let scenario): scenario.group.rawValue
        }
    }

    /// One line on what the server does.
    var summary: String {
        switch self {
        case .dirt(let dirt): dirt.summary
        case .trickle: "the right answer sent in ten pieces across the configured slow delay"
        case .scenario(.general(.tokenExpired)):
            "on operations that declare security: HTTP 401 (or the token-expired code where the answer carries a code)"
        case .scenario(let scenario) where scenario.businessCode != nil:
            scenario.summary.replacingOccurrences(of: "in a failure envelope", with: "in the answer's own code field")
        case .scenario(.httpStatus(let status)) where status == 429 || status == 503:
            "HTTP \(status) with Retry-After, and the document's body for it if it gives one"
        case .scenario(.httpStatus(let status)): "HTTP \(status), with the document's body for it if it gives one"
        case .scenario(let scenario): scenario.summary
        }
    }

    /// How a request log names it: BadBackend's scenario where it has one.
    var logged: Scenario? {
        switch self {
        case .dirt(let dirt): Dirt(rawValue: dirt.rawValue).map(Scenario.dirty)
        case .trickle: nil
        case .scenario(let scenario): scenario
        }
    }
}
