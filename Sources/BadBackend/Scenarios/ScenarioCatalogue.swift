import Foundation

/// What `GET /scenarios` answers: every style, resource, scenario and query item, and how
/// this server is configured.
@available(macOS 14, iOS 17, tvOS 17, *)
struct ScenarioCatalogue: Encodable {
    struct ResourceEntry: Encodable {
        let method: String
        let path: String
        let summary: String
    }

    struct ScenarioEntry: Encodable {
        let name: String
        let group: String
        let summary: String
        let example: String
        let code: Int?
    }

    struct QueryItem: Encodable {
        let name: String
        let summary: String
    }

    struct Auth: Encodable {
        let accessTokenLifetimeSeconds: Int64
        let expiredToken: String
        let refresh: String
    }

    struct Faults: Encodable {
        let rate: Double
        let seed: UInt64
        let from: [String]
    }

    let styles = EnvelopeStyle.allCases.map(\.rawValue)
    let resources = Route.Resource.catalogue.map { ResourceEntry(method: $0.method, path: $0.path, summary: $0.summary) }
    let scenarios = Scenario.all.map {
        ScenarioEntry(
            name: $0.name, group: $0.group.rawValue, summary: $0.summary,
            example: "/scenarios/\($0.name)/b/products", code: $0.businessCode)
    }
    let queryItems = [
        QueryItem(name: "failures", summary: "the scenario applies to the first N attempts at a path, then the clean answer"),
        QueryItem(name: "status", summary: "the HTTP status of a business-code scenario's envelope; 200 by default"),
        QueryItem(name: "retryAfter", summary: "the Retry-After of http-429 (1 by default) and http-503"),
    ]
    let generalCodes = Dictionary(uniqueKeysWithValues: BadBackend.GeneralCode.allCases.map { ($0.scenario.name, $0.rawValue) })
    let auth: Auth
    let randomFaults: Faults?

    init(configuration: BadBackend.Configuration) {
        auth = Auth(
            accessTokenLifetimeSeconds: configuration.accessTokenLifetime.components.seconds,
            expiredToken: configuration.expiredToken.rawValue, refresh: configuration.refresh.rawValue)
        randomFaults = configuration.randomFaults.map {
            Faults(rate: $0.rate, seed: $0.seed, from: Scenario.randomFaults.map(\.name))
        }
    }

    var answer: Answer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail; an empty object is still JSON.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Answer(status: .ok, contentType: "application/json; charset=utf-8", text: String(decoding: data, as: UTF8.self))
    }
}
