import Foundation

/// What `GET /scenarios` answers for a served document: its operations with the scenarios that
/// change each one's answer, every scenario, and how to name one.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DocumentCatalogue: Encodable {
    struct OperationEntry: Encodable {
        let method: String
        let path: String
        let operationId: String
        let status: Int?
        let example: Bool
        let secured: Bool
        let scenarios: [String]
    }

    struct ScenarioEntry: Encodable {
        let name: String
        let group: String
        let summary: String
    }

    struct Faults: Encodable {
        let rate: Double
        let seed: UInt64
        let from: [String]
    }

    let document: String
    let seed: UInt64
    let header = "Backstop-Scenario"
    let pathPrefix = "/scenarios/<name>/…"
    let scenario: String?
    let operations: [OperationEntry]
    let scenarios = DocumentScenario.all.map { ScenarioEntry(name: $0.name, group: $0.group, summary: $0.summary) }
    let webhooks: Int
    let randomFaults: Faults?

    init(document served: BadBackend.ServedDocument, configuration: BadBackend.Configuration) {
        let rehearsal = served.rehearsal
        document = rehearsal.title
        seed = rehearsal.seed
        scenario = served.scenario
        webhooks = rehearsal.webhookCount
        operations = rehearsal.operations.map { operation in
            let applicable = served.applicable[operation.operationID] ?? []
            return OperationEntry(
                method: operation.method, path: operation.path, operationId: operation.operationID, status: operation.answer?.status,
                example: operation.answer?.fromExample ?? false, secured: operation.secured,
                scenarios: DocumentScenario.all.map(\.name).filter(applicable.contains))
        }
        randomFaults = configuration.randomFaults.map { Faults(rate: $0.rate, seed: $0.seed, from: Scenario.randomFaults.map(\.name)) }
    }

    var answer: Answer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers cannot fail; an empty object is still JSON.
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Answer(status: .ok, contentType: "application/json; charset=utf-8", text: String(decoding: data, as: UTF8.self))
    }
}
