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

/// One request to a served document, answered clean or as a scenario says: what the answer
/// depends on, as ``AnswerContext`` is for BadBackend's own resources.
@available(macOS 14, iOS 17, tvOS 17, *)
struct DocumentAnswering {
    let backend: BadBackend
    let rehearsal: DocumentRehearsal
    let operation: DocumentOperation
    let method: String
    let path: String
    /// The path parameters' values by name, which a generated answer carries back.
    let pathParameters: [String: String]
    /// The query items as sent, percent-decoded.
    let query: [(name: String, value: String)]
    let slowDeadline: Duration
    let attempt: Int

    /// The operation's answer as the document gives it, a generated one carrying the path's parameters.
    func clean() async throws -> Answer {
        guard let response = operation.answer else {
            return Answer(status: .noContent, contentType: "application/json; charset=utf-8", bytes: [])
        }
        return Answer(
            status: HTTPResponse.Status(code: response.status), contentType: Self.contentType(response),
            bytes: Array(operation.cleanBody(pathParameters: pathParameters)))
    }

    /// The answer `scenario` makes of it; the scenario applies to the operation.
    func misbehaving(as scenario: DocumentScenario) async throws -> Response {
        var answer = try await clean()
        if let header = DocumentResponder.appliedHeader { answer.headers[header] = scenario.name }
        guard let response = operation.answer else { return answer.response }
        switch scenario {
        case .dirt(let dirt):
            if let dirty = rehearsal.dirtied(
                Data(answer.body), of: operation, status: response.status, contentType: response.contentType, by: dirt)
            {
                answer.body = Array(dirty)
            }
            return answer.response
        case .trickle:
            return trickled(answer)
        case .scenario(let scenario):
            return try await answering(scenario, clean: answer)
        }
    }

    private func answering(_ scenario: Scenario, clean: Answer) async throws -> Response {
        var answer = clean
        switch scenario {
        case .general, .studyGroup, .unknownCode, .hostileMessage:
            guard let code = DocumentCode(scenario) else { return answer.response }
            if code.isUnauthorized(for: operation, expiredToken: backend.configuration.expiredToken) {
                return DocumentCode.unauthorized(operation).response
            }
            let body = code.written(into: Data(clean.body), of: operation, in: rehearsal)
            if code.isTokenExpired {
                // An answer that is not an object has nowhere to carry the code.
                guard let body else { return DocumentCode.unauthorized(operation).response }
                answer.body = Array(body)
                return answer.response
            }
            if let body { answer.body = Array(body) }
            answer.status = HTTPResponse.Status(code: integer("status").flatMap { (100...599).contains($0) ? $0 : nil } ?? 200)
            return answer.response
        case .httpStatus(let status):
            answer = documented(status, reason: Scenario.reasonPhrase(of: status))
            if let retryAfter = query.first(where: { $0.name == "retryAfter" })?.value ?? (status == 429 || status == 503 ? "1" : nil) {
                answer.headers[.retryAfter] = retryAfter
            }
            return answer.response
        case .htmlErrorPage:
            return Answer.htmlErrorPage.response
        case .emptyBody:
            answer.body = []
            return answer.response
        case .truncatedBody:
            return clean.truncated.response
        case .wrongContentType:
            answer.contentType = "text/html; charset=utf-8"
            return answer.response
        case .slow:
            try await waitUntil(slowDeadline)
            return answer.response
        case .connectionClosedMidBody:
            return clean.closedMidBody
        case .outage:
            let length = Duration.seconds(integer("seconds").map { max($0, 0) } ?? Scenario.outageSeconds)
            let start = await backend.requestLog.firstArrival(method: method, path: path) ?? backend.clock.elapsed()
            let left = start + length - backend.clock.elapsed()
            guard left > .zero else { return clean.response }
            answer = documented(503, reason: "Down for an outage")
            let (seconds, attoseconds) = left.components
            answer.headers[.retryAfter] = String(seconds + (attoseconds > 0 ? 1 : 0))
            return answer.response
        case .burst:
            let capacity = max(integer("capacity") ?? Scenario.burstCapacity, 0)
            guard await backend.burstRoom.enter(capacity: capacity) else {
                answer = documented(503, reason: "Too busy: \(capacity) requests at once at most")
                answer.headers[.retryAfter] = "1"
                return answer.response
            }
            do {
                try await waitUntil(slowDeadline)
            } catch {
                await backend.burstRoom.leave()
                throw error
            }
            await backend.burstRoom.leave()
            return clean.response
        case .dirty:
            return clean.response
        }
    }

    /// The document's answer for `status` when it gives one, else a small JSON body saying why.
    private func documented(_ status: Int, reason: String) -> Answer {
        Self.documented(status, reason: reason, of: operation)
    }

    /// The document's answer of `operation` for `status` when it gives one, else a small JSON body saying why.
    static func documented(_ status: Int, reason: String, of operation: DocumentOperation) -> Answer {
        let response = operation.responses.first { $0.status == status }
        guard let response, response.contentType != nil else {
            return Answer(status: HTTPResponse.Status(code: status), json: .object([("error", .string(reason))]))
        }
        return Answer(status: HTTPResponse.Status(code: status), contentType: contentType(response), bytes: Array(response.body))
    }

    /// The answer sent in ten pieces, spread across the slow delay on the server's clock.
    private func trickled(_ answer: Answer) -> Response {
        var fields = answer.headers
        fields[.contentType] = answer.contentType
        let body = answer.body
        let clock = backend.clock
        let delay = backend.configuration.slowAnswerDelay
        // From the request's arrival, before it was logged, as the slow scenario counts: a test
        // that sees it in the log and moves its clock past the delay gets every piece.
        let start = slowDeadline - delay
        let pieces = 10
        let size = max(1, (body.count + pieces - 1) / pieces)
        return Response(
            status: answer.status, headers: fields,
            body: ResponseBody(contentLength: body.count) { writer in
                for (index, offset) in stride(from: 0, to: body.count, by: size).enumerated() {
                    if index > 0 {
                        let deadline = start + delay * index / pieces
                        try await cancelWhenGracefulShutdown { try await clock.sleep(deadline) }
                    }
                    try await writer.write(ByteBuffer(bytes: body[offset..<min(offset + size, body.count)]))
                }
                try await writer.finish(nil)
            })
    }

    /// The query item `name` as a whole number, when it is one.
    private func integer(_ name: String) -> Int? {
        query.first { $0.name == name }.flatMap { Int($0.value) }
    }

    private func waitUntil(_ deadline: Duration) async throws {
        let clock = backend.clock
        try await cancelWhenGracefulShutdown { try await clock.sleep(deadline) }
    }

    /// The content type as sent: JSON in UTF-8.
    static func contentType(_ response: DocumentResponse) -> String {
        guard let type = response.contentType else { return "application/json; charset=utf-8" }
        return response.isJSON ? "\(type); charset=utf-8" : type
    }
}
