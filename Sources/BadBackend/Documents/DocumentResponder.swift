import Foundation
import HTTPTypes

#if BadBackend && OpenAPI
    import BackstopOpenAPI
    import Hummingbird
    import ServiceLifecycle
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// Answers every request from an app's own document: finds its operation, checks its
/// parameters, logs it, then answers as its scenario says.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DocumentResponder: HTTPResponder {
    let backend: BadBackend
    let document: BadBackend.ServedDocument

    /// The request header that names a scenario; never forwarded or echoed.
    static let scenarioHeader = HTTPField.Name("Backstop-Scenario")
    /// The answer's header that says which scenario it got, or why none changed it.
    static let appliedHeader = HTTPField.Name("Backstop-Scenario-Applied")

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        var path = request.uri.path
        if path == "/scenarios" || path == "/scenarios/" {
            return DocumentCatalogue(document: document, configuration: backend.configuration).answer.response
        }
        if path == "/openapi.yaml" || path == "/openapi.json" {
            return Answer(status: .ok, contentType: "application/yaml", bytes: Array(document.data)).response
        }
        var fromPath: DocumentScenario?
        if path.hasPrefix("/scenarios/") {
            let rest = path.dropFirst("/scenarios/".count)
            let name = rest.prefix { $0 != "/" }
            guard let scenario = DocumentScenario(name: String(name)) else {
                return Answer.notServed(.notFound, "no scenario is named '\(name)'").response
            }
            fromPath = scenario
            path = String(rest.dropFirst(name.count))
            if path.isEmpty { path = "/" }
        }
        var fromHeader: DocumentScenario?
        if let header = Self.scenarioHeader, let value = request.headers[header] {
            guard let scenario = DocumentScenario(name: value.trimmingCharacters(in: .whitespaces)) else {
                return Answer.notServed(.badRequest, "Backstop-Scenario names no scenario: '\(value)'").response
            }
            fromHeader = scenario
        }
        let named = fromHeader ?? fromPath
        let rehearsal = document.rehearsal
        let method = request.method.rawValue
        let operation: DocumentOperation
        let pathParameters: [String: String]
        switch rehearsal.match(method: method, path: path) {
        case .noPath:
            return Answer.notServed(.notFound, "the document has no operation at \(path)").response
        case .wrongMethod(let allowed):
            var answer = Answer.notServed(.methodNotAllowed, "\(path) answers \(allowed.joined(separator: ", "))")
            answer.headers[.allow] = allowed.joined(separator: ", ")
            return answer.response
        case .operation(let found, let parameters):
            operation = found
            pathParameters = parameters
        }
        let query = request.uri.queryParameters.map { (name: String($0.key), value: String($0.value)) }
        if let problem = rehearsal.problem(with: operation, pathParameters: pathParameters, query: query) {
            return Answer.notServed(.badRequest, problem).response
        }
        var request = request
        let body: Data?
        do {
            let bytes = try await request.collectBody(upTo: BackendResponder.maximumRequestBody)
            body = bytes.readableBytes == 0 ? nil : Data(buffer: bytes)
        } catch {
            return Answer.notServed(.contentTooLarge, "a request body is at most \(BackendResponder.maximumRequestBody) bytes").response
        }
        let slowDeadline = backend.clock.elapsed() + backend.configuration.slowAnswerDelay
        let failures = query.first { $0.name == "failures" }.flatMap { Int($0.value) }
        let random = backend.configuration.randomFaults
        let whole = document.scenario.flatMap(DocumentScenario.init(name:))
        let requestPath = request.uri.path
        // A function of the attempt alone, so it gives the same scenario in the log and here.
        let scenario: @Sendable (Int) -> DocumentScenario? = { attempt in
            if let named { return attempt <= (failures ?? Int.max) ? named : nil }
            if let fault = random?.fault(method: method, path: requestPath, attempt: attempt) { return .scenario(fault) }
            return whole
        }
        let entry = await backend.requestLog.record(
            method: method, path: requestPath, query: request.uri.query ?? "",
            credential: BackendResponder.bearerToken(in: request.headers), body: body, at: backend.clock.elapsed()
        ) { attempt in
            let chosen = scenario(attempt)
            return (chosen?.logged, chosen?.name)
        }
        let answer = DocumentAnswering(
            backend: backend, rehearsal: rehearsal, operation: operation, method: method, path: request.uri.path,
            pathParameters: pathParameters, query: query,
            slowDeadline: slowDeadline, attempt: entry.attempt)
        guard let chosen = scenario(entry.attempt) else { return try await answer.clean().response }
        guard document.applicable[operation.operationID]?.contains(chosen.name) == true else {
            var clean = try await answer.clean()
            if let header = Self.appliedHeader {
                clean.headers[header] = "none: \(chosen.name) finds nothing to change in \(operation.title)"
            }
            return clean.response
        }
        return try await answer.misbehaving(as: chosen)
    }
}
