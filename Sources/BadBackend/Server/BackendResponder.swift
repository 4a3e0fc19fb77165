import Foundation

#if BadBackend && OpenAPI
    import Hummingbird
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// Answers every request: reads the route, logs the request, then answers it as its scenario says.
@available(macOS 14, iOS 17, tvOS 17, *)
struct BackendResponder: HTTPResponder {
    let backend: BadBackend

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let path = request.uri.path
        if path == "/scenarios" || path == "/scenarios/" {
            return ScenarioCatalogue(configuration: backend.configuration).answer.response
        }
        if path == "/openapi.yaml" {
            guard request.method == .get || request.method == .head else {
                return Answer.notServed(.methodNotAllowed, "\(path) answers GET only").response
            }
            return Answer(status: .ok, contentType: "application/yaml", text: openAPIDocumentText).response
        }
        let route: Route
        do {
            route = try Route(path: path)
        } catch {
            return Answer.notServed(.notFound, error.reason).response
        }
        if let method = route.resource.method, request.method.rawValue != method {
            return Answer.notServed(.methodNotAllowed, "\(path) answers \(method) only").response
        }
        var request = request
        let body: Data?
        do {
            let bytes = try await request.collectBody(upTo: Self.maximumRequestBody)
            body = bytes.readableBytes == 0 ? nil : Data(buffer: bytes)
        } catch {
            return Answer.notServed(.contentTooLarge, "a request body is at most \(Self.maximumRequestBody) bytes").response
        }
        let refreshToken = route.resource == .refresh ? Self.refreshToken(in: body) : nil
        let bearer = Self.bearerToken(in: request.headers)
        // Taken before the request is logged, so a test that sees the entry and advances its
        // clock past the delay always releases the answer. (Past, not onto: swift-clocks'
        // TestClock keeps waiting a sleep that starts exactly at its deadline.)
        let slowDeadline = backend.clock.elapsed() + backend.configuration.slowAnswerDelay
        let query = request.uri.queryParameters
        let failures = query.get("failures", as: Int.self)
        let random = route.resource.isAuth ? nil : backend.configuration.randomFaults
        let method = request.method.rawValue
        let entry = await backend.requestLog.record(
            method: method, path: path, query: request.uri.query ?? "",
            credential: route.resource == .refresh ? refreshToken : bearer, body: body, at: backend.clock.elapsed()
        ) { attempt in
            guard let scenario = route.scenario else { return random?.fault(method: method, path: path, attempt: attempt) }
            return attempt <= (failures ?? Int.max) ? scenario : nil
        }
        let context = AnswerContext(
            backend: backend, route: route, request: entry, headers: request.headers, bearer: bearer,
            refreshToken: refreshToken, slowDeadline: slowDeadline)
        switch entry.scenario {
        case nil:
            return try await context.resource(dirt: nil).response
        case .dirty(let dirt)?:
            return try await context.resource(dirt: dirt).response
        case .general?, .studyGroup?, .unknownCode?:
            // Only real statuses: the type traps on codes outside 100...999.
            let code = query.get("status", as: Int.self).flatMap { (100...599).contains($0) ? $0 : nil } ?? 200
            let status = HTTPResponse.Status(code: code)
            return context.failure(status, code: entry.scenario?.businessCode ?? 0, message: entry.scenario?.message ?? "").response
        case .hostileMessage?:
            let code = query.get("status", as: Int.self).flatMap { (100...599).contains($0) ? $0 : nil } ?? 200
            let message = query.get("message").map { String($0) } ?? Scenario.hostileText
            let count = max(1, min(query.get("repeat", as: Int.self) ?? 1, Scenario.maximumMessageBytes / max(message.utf8.count, 1)))
            let text = String(repeating: message, count: count)
            return context.failure(HTTPResponse.Status(code: code), code: Scenario.unknownBusinessCode, message: text).response
        case .httpStatus(let code)?:
            let status = HTTPResponse.Status(code: code)
            var answer = context.failure(status, code: code * 100, message: Scenario.reasonPhrase(of: code))
            if let retryAfter = query.get("retryAfter") ?? (code == 429 ? "1" : nil) {
                answer.headers[.retryAfter] = String(retryAfter)
            }
            return answer.response
        case .htmlErrorPage?:
            return Answer.htmlErrorPage.response
        case .emptyBody?:
            return Answer(status: .ok, contentType: "application/json; charset=utf-8", text: "").response
        case .truncatedBody?:
            return try await context.resource(dirt: nil).truncated.response
        case .wrongContentType?:
            var answer = try await context.resource(dirt: nil)
            answer.contentType = "text/html; charset=utf-8"
            return answer.response
        case .slow?:
            try await context.waitForSlowDeadline()
            return try await context.resource(dirt: nil).response
        case .connectionClosedMidBody?:
            return try await context.resource(dirt: nil).closedMidBody
        case .outage?:
            let length = Duration.seconds(query.get("seconds", as: Int.self).map { max($0, 0) } ?? Scenario.outageSeconds)
            let start = await backend.requestLog.firstArrival(method: method, path: path) ?? backend.clock.elapsed()
            let left = start + length - backend.clock.elapsed()
            guard left > .zero else { return try await context.resource(dirt: nil).response }
            var answer = context.failure(.serviceUnavailable, code: 50300, message: "Down for an outage")
            // Whole seconds, rounded up: a client that waits what it says finds the backend back.
            let (seconds, attoseconds) = left.components
            answer.headers[.retryAfter] = String(seconds + (attoseconds > 0 ? 1 : 0))
            return answer.response
        case .burst?:
            let capacity = max(query.get("capacity", as: Int.self) ?? Scenario.burstCapacity, 0)
            guard await backend.burstRoom.enter(capacity: capacity) else {
                var answer = context.failure(.serviceUnavailable, code: 50300, message: "Too busy: \(capacity) requests at once at most")
                answer.headers[.retryAfter] = "1"
                return answer.response
            }
            let answer: Answer
            do {
                try await context.waitForSlowDeadline()
                answer = try await context.resource(dirt: nil)
            } catch {
                await backend.burstRoom.leave()
                throw error
            }
            await backend.burstRoom.leave()
            return answer.response
        }
    }

    static func bearerToken(in headers: HTTPFields) -> String? {
        guard let value = headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    /// The largest request body BadBackend reads, and keeps in its log.
    static let maximumRequestBody = 1 << 20

    private static func refreshToken(in body: Data?) -> String? {
        struct RefreshRequest: Decodable { let refreshToken: String }
        guard let body else { return nil }
        return try? JSONDecoder().decode(RefreshRequest.self, from: body).refreshToken
    }
}
