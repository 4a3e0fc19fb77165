import Foundation

#if OpenAPI
    import BackstopOpenAPI
#endif

@available(macOS 14, iOS 17, tvOS 17, *)
extension BadBackend {
    /// An app's own OpenAPI document, which BadBackend serves in place of its own resources
    /// (``Configuration/document``): every operation answers with the document's example, else a
    /// value generated from its schema, and misbehaves on request.
    ///
    /// A request names its misbehaviour with the `Backstop-Scenario` header or a
    /// `/scenarios/<name>` prefix on its path; `GET /scenarios` lists them with the operations
    /// each applies to. Dirty data is made where the schema says each value is: numbers as
    /// strings where it declares integers, a required field `null`, an enum value it does not list.
    /// Path and query parameters are checked against the document: 404 for a path it does not
    /// have, 405 for a method, 400 for a parameter that does not fit.
    ///
    /// ```swift
    /// // fragment: `yaml` is the app's document.
    /// let document = try BadBackend.ServedDocument(data: yaml, source: "app.yaml", seed: 7)
    /// let backend = BadBackend(configuration: .init(document: document))
    /// ```
    public struct ServedDocument: Sendable {
        let rehearsal: DocumentRehearsal
        /// The document's bytes, served at `GET /openapi.yaml`.
        let data: Data
        /// The scenarios that change each operation's answer, by operation ID.
        let applicable: [String: Set<String>]

        /// The misbehaviour of every request that names none (and gets no random fault): a name
        /// from ``scenarioNames``; `nil`, or any other name, answers clean.
        public var scenario: String?

        /// Reads `data` and makes every operation's answer.
        ///
        /// - Parameters:
        ///   - data: The document: YAML or JSON, OpenAPI 3.0 or 3.1.
        ///   - source: Its name in errors, such as its file name.
        ///   - seed: The seed of generated values: the same seed, the same answers.
        ///   - scenario: The misbehaviour of every request that names none.
        /// - Throws: `OpenAPIContractError` naming where and why the document cannot be used,
        ///   as `OpenAPIContract` reads it; a hostile document (an alias bomb, a `$ref` cycle,
        ///   10,000 levels of nesting) is refused so, at once.
        public init(data: Data, source: String = "document", seed: UInt64 = 0, scenario: String? = nil) throws(OpenAPIContractError) {
            let rehearsal = try DocumentRehearsal(data: data, source: source, seed: seed)
            self.rehearsal = rehearsal
            self.data = data
            self.scenario = scenario
            var applicable: [String: Set<String>] = [:]
            for operation in rehearsal.operations {
                applicable[operation.operationID] = Set(
                    DocumentScenario.all.filter { Self.applies($0, to: operation, in: rehearsal) }.map(\.name))
            }
            self.applicable = applicable
        }

        /// Every misbehaviour's name, in the order `GET /scenarios` lists them.
        public static var scenarioNames: [String] { DocumentScenario.all.map(\.name) }

        /// The document's operations, as `METHOD /path` (`GET /pets/{petId}`), in its order.
        public var operations: [String] { rehearsal.operations.map(\.title) }

        /// Whether `scenario` changes `operation`'s answer: dirt that finds something to change,
        /// a code where the answer carries one, an expired token where security is declared.
        static func applies(_ scenario: DocumentScenario, to operation: DocumentOperation, in rehearsal: DocumentRehearsal) -> Bool {
            guard let answer = operation.answer else { return false }
            switch scenario {
            case .dirt(let dirt):
                return answer.isJSON
                    && rehearsal.dirtied(answer.body, of: operation, status: answer.status, contentType: answer.contentType, by: dirt)
                        != nil
            case .scenario(let other) where other.businessCode != nil:
                return DocumentCode(other)?.applies(to: operation) ?? false
            case .scenario, .trickle:
                return true
            }
        }
    }
}
