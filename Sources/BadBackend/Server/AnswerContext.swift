import Foundation

#if BadBackend && OpenAPI
    import Hummingbird
    import ServiceLifecycle
#else
    #error(
        "BadBackend needs Backstop's BadBackend and OpenAPI traits: .package(name: \"Backstop\", …, traits: [\"BadBackend\", \"OpenAPI\"])")
#endif

/// What one request's answer depends on: its route, its credentials and the server's state.
@available(macOS 14, iOS 17, tvOS 17, *)
struct AnswerContext {
    let backend: BadBackend
    let route: Route
    /// The request as logged: method, path with query, body.
    let request: LoggedRequest
    let headers: HTTPFields
    let bearer: String?
    let refreshToken: String?
    let slowDeadline: Duration

    /// A failure envelope in the route's style.
    func failure(_ status: HTTPResponse.Status, code: Int, message: String) -> Answer {
        Answer(status: status, json: route.style.failure(code: code, message: message))
    }

    /// A 401 whose envelope says the session is over.
    private func signInRequired(_ message: String) -> Answer {
        failure(.unauthorized, code: BadBackend.GeneralCode.signInRequired.rawValue, message: message)
    }

    /// The resource the route names, with `dirt`, or the auth failure that stands in its way.
    ///
    /// A bearer token, when sent, must be valid for every resource; the account needs one.
    func resource(dirt: Dirt?) async throws -> Answer {
        let style = route.style
        if route.resource.checksCredentials, bearer != nil || route.resource == .account {
            switch await backend.tokens.check(bearer) {
            case .valid: break
            case .expired:
                let status: HTTPResponse.Status = backend.configuration.expiredToken == .unauthorized ? .unauthorized : .ok
                return failure(
                    status, code: BadBackend.GeneralCode.tokenExpired.rawValue,
                    message: BadBackend.GeneralCode.tokenExpired.scenario.message)
            case .missing, .unknown:
                return signInRequired(BadBackend.GeneralCode.signInRequired.scenario.message)
            }
        }
        switch route.resource {
        case .products:
            return Answer(json: style.success(SampleData.productList(dirt)))
        case .product(let id):
            guard let product = SampleData.products.first(where: { $0.id == id }) else {
                return failure(.notFound, code: 40400, message: "No product \(id)")
            }
            return Answer(json: style.success(SampleData.product(product, dirt)))
        case .studyGroups:
            return Answer(json: style.success(SampleData.studyGroupList(dirt)))
        case .studyGroup(let id):
            return Answer(json: style.success(SampleData.studyGroup(id: id, dirt)))
        case .account:
            return Answer(json: style.success(SampleData.account(dirt)))
        case .signIn:
            return Answer(json: style.success(SampleData.tokens(await backend.tokens.signIn(), dirt)))
        case .refresh:
            switch await backend.tokens.refreshBehaviour {
            case .fails:
                return signInRequired("Refresh failed; please sign in")
            case .slow:
                try await waitForSlowDeadline()
            case .unavailable:
                return failure(.serviceUnavailable, code: 50300, message: "Service Unavailable")
            case .rejected:
                return failure(.badRequest, code: 40000, message: "Invalid refresh token")
            case .succeeds:
                break
            }
            guard let tokens = await backend.tokens.refresh(refreshToken) else {
                return signInRequired("Refresh token is not valid; please sign in")
            }
            return Answer(json: style.success(SampleData.tokens(tokens, dirt)))
        case .echo:
            return Answer(json: style.success(echo))
        case .sized(let bytes):
            return Answer(json: style.success(.string(String(repeating: "a", count: bytes))))
        }
    }

    /// Waits until the slow deadline on the server's clock, or until the server stops
    /// gracefully: a slow answer nobody releases never holds up a test's shutdown.
    func waitForSlowDeadline() async throws {
        let clock = backend.clock
        let deadline = slowDeadline
        try await cancelWhenGracefulShutdown { try await clock.sleep(deadline) }
    }

    /// The request as the echo's payload: a JSON body as JSON, any other body as text.
    private var echo: JSONText {
        var fields: [(String, JSONText)] = []
        for field in headers {
            let name = field.name.canonicalName
            if let index = fields.firstIndex(where: { $0.0 == name }), case .string(let earlier) = fields[index].1 {
                fields[index].1 = .string(earlier + ", " + field.value)
            } else {
                fields.append((name, .string(field.value)))
            }
        }
        let body: JSONText =
            request.body.map { data in
                (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
                    ? .verbatim(String(decoding: data, as: UTF8.self)) : .string(String(decoding: data, as: UTF8.self))
            } ?? .null
        return .object([
            ("method", .string(request.method)), ("path", .string(request.path)),
            ("headers", .object(fields)), ("body", body),
        ])
    }
}
