import BackstopJSON
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A whole ``ClientPipeline`` as one `ClientMiddleware`, for an OpenAPI-generated client.
///
/// ```swift
/// let generated = Client(
///     serverURL: try Servers.Server1.url(),
///     transport: StreamingURLSessionTransport(),
///     middlewares: PipelineMiddleware(pipeline, contract: backendB, generalCodes: AppCode.self)
///         .wrapping([RequestIDMiddleware()])
/// )
/// ```
///
/// Each generated operation then goes through the same stages, in the same order, as a call
/// of ``APIClient``: one log line named by its operation ID, the same metrics, retries by the
/// same rules (a rate-limited code inside a 200 envelope included), the session's single
/// refresh, app-wide events, and the timeouts, run by the same runner.
///
/// **Give the generated client ``wrapping(_:)``'s list as its whole `middlewares:`**, with the
/// app's own middlewares inside it: they then run around each attempt, after authentication, as
/// ``ClientPipeline/middlewares`` do, and the call site says so. A middleware listed *before*
/// the pipeline in the generated client runs once per call, outside retry, authentication and
/// every other stage: it sees neither the credential nor the retries. Nothing in a generated
/// client's chain tells a middleware what runs before it, so the pipeline cannot refuse one
/// there; `wrapping` makes the order the call site's to read. One listed *after* it runs around
/// each attempt, like ``ClientPipeline/middlewares``.
///
/// The generated client's `next` is not `@escaping`: the middleware lends it to the stages
/// for the duration of one call and takes it back before returning. Every stage runs in the
/// call's task or in child tasks it awaits; hedging's requests, which are tasks of their own,
/// are all awaited before the call returns (the losing ones cancelled first), so none uses
/// `next` after the generated client's call has moved on.
///
/// - The response body is read once, within ``ClientPipeline/maximumResponseBytes``, and
///   handed on to the generated code; a request body that can be read only once is buffered
///   to be replayed.
/// - Operations get the pipeline's rules: retries by method, the credential unless their ID is
///   in ``unauthenticatedOperations``.
/// - Failures reach the generated client's caller inside OpenAPI's `ClientError`:
///   `TransportFailure(error)` classifies a transport failure (a timeout included), and a
///   session that cannot authenticate throws ``AuthenticationError``. A status of 400 or more
///   is returned as a response, and logged and counted as an HTTP failure.
/// - With a ``ResponseRepairing`` (`BackstopOpenAPI`'s `OpenAPIContract`), the final answer's
///   body is repaired before the generated code decodes it, and its repairs are reported as
///   ``APIClient`` reports a decode's: the count in the log line and `backstop_repairs_total`,
///   each repair in ``ClientPipeline/contractDrift`` (excerpts redacted). A body it cannot
///   repair fails the call with ``APIError/decoding(_:)``. A response the repairer does not
///   describe is passed on untouched, and said so once per operation at `warning`.
/// - With ``ClientPipeline/savedAnswers``, each GET's good answer is saved as received, after
///   its repairs succeeded (and, with `throwingBusinessFailures`, its envelope read no business
///   failure), and a failure of the backend or the network is answered from it: the generated
///   code gets the saved status, `Content-Type`, `ETag` and `Last-Modified`, an `Age` field
///   with its age in seconds, and the saved body with its repairs made again.
///   ``savedAnswerRules`` opts other operations in, or one out.
/// - With `throwingBusinessFailures`, a 2xx whose envelope reads a business failure by the
///   `contract` fails the call with ``APIError/server(_:)`` of `generalCodes`, as ``APIClient``
///   throws it, instead of handing the generated code an envelope to inspect.
public struct PipelineMiddleware: ClientMiddleware {
    /// The stages every operation goes through.
    public private(set) var pipeline: ClientPipeline
    /// Operations sent without the session's credential, such as `signIn` and `refreshToken`.
    public var unauthenticatedOperations: Set<String>
    /// What operations, by ID, do with saved answers instead of what their method decides
    /// (``SavedAnswerRule``); empty by default.
    public var savedAnswerRules: [String: SavedAnswerRule] = [:]

    /// Reads business codes when a stage acts on them; `nil` when none does, so bodies are not parsed.
    private let codes: CodeReader?
    /// Runs each operation through ``pipeline``'s stages.
    private var runner: CallRunner
    /// Repairs final answers' bodies; `nil` when they go to the generated code as received.
    private let repairer: (any ResponseRepairing)?
    /// The business failure a 2xx answer's envelope reads, as thrown and as logged; `nil` when
    /// business failures are handed on as responses.
    private let businessFailure: (@Sendable (_ body: Data, _ parsed: ParsedJSON?, _ response: HTTPResponse) -> BusinessFailure?)?
    /// The operations already said to be undescribed by ``repairer``, so each is said once.
    private let undescribed = LockedValue<Set<String>>([])

    /// The middleware that runs `pipeline` for every operation of a generated client.
    ///
    /// - Parameters:
    ///   - pipeline: The stages every operation goes through.
    ///   - contract: Where the backend puts its business codes, for the stages that act on
    ///     their roles (retrying `rateLimited`, refreshing on `tokenExpired`, app-wide events).
    ///   - generalCodes: The app-wide codes and their roles.
    ///   - decoder: Parses bodies to read their codes; its policy should be the one the app
    ///     decodes with.
    ///   - unauthenticatedOperations: The operation IDs sent without the session's credential,
    ///     such as `signIn` and `refreshToken`.
    ///   - repairing: Repairs each final answer's body before the generated code decodes it,
    ///     such as `BackstopOpenAPI`'s `OpenAPIContract`; `nil` hands bodies on as received.
    ///   - throwingBusinessFailures: Whether a 2xx whose envelope reads a business failure fails
    ///     the call with ``APIError/server(_:)`` (an `APIError<General, NoModuleCodes>`, inside
    ///     OpenAPI's `ClientError`) instead of being handed to the generated code.
    public init<General: ServerCode>(
        _ pipeline: ClientPipeline,
        contract: any ResponseContract,
        generalCodes: General.Type,
        decoder: ResilientJSONDecoder = ResilientJSONDecoder(),
        unauthenticatedOperations: Set<String> = [],
        repairing: (any ResponseRepairing)? = nil,
        throwingBusinessFailures: Bool = false
    ) {
        self.pipeline = pipeline
        runner = CallRunner(pipeline)
        self.unauthenticatedOperations = unauthenticatedOperations
        let readsCodes = !pipeline.retry.retryableRoles.isEmpty || pipeline.authentication != nil || pipeline.generalCodes != nil
        codes = readsCodes ? CodeReader(contract: contract, generalCodes: General.self, decoder: decoder) : nil
        repairer = repairing
        if throwingBusinessFailures {
            businessFailure = { @Sendable body, parsed, response in
                BusinessFailure.read(body, parsed: parsed, response: response, contract: contract, decoder: decoder, General.self)
            }
        } else {
            businessFailure = nil
        }
    }

    /// The generated client's whole middleware list: this pipeline, with `middlewares` inside
    /// it, after ``ClientPipeline/middlewares``.
    ///
    /// Each of `middlewares` runs around each attempt, first to last, after authentication,
    /// with the credential on the request: once per attempt, a retry's and a hedge's included.
    /// Give the list as the generated client's `middlewares:`, adding nothing before it.
    public func wrapping(_ middlewares: [any ClientMiddleware]) -> [any ClientMiddleware] {
        var wrapping = self
        wrapping.pipeline.middlewares += middlewares
        wrapping.runner = CallRunner(wrapping.pipeline)
        return [wrapping]
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let traced = { TracedCall(operationName: operationID, request: request, baseURL: baseURL) }
        var result: Result<(HTTPResponse, HTTPBody?), any Error>?
        await runner.observe(method: request.method, operationID: operationID, path: request.path ?? "", traced: traced) {
            record in
            await call(request, body: body, baseURL: baseURL, operationID: operationID, record: record, next: next, result: &result)
        }
        // `observe` always runs `call`.
        guard let result else { throw CancellationError() }
        return try result.get()
    }

    /// One operation through the pipeline from coalescing down, with `next` lent to it; what the
    /// generated client gets goes into `result`, and what observation reports is answered.
    private func call(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        record: CallRecord,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?),
        result: inout Result<(HTTPResponse, HTTPBody?), any Error>?
    ) async -> CallEnding {
        if let refused = RequestPath.dotSegment(in: request.path ?? "").map({ RequestPath.refusal($0, of: operationID) }) {
            result = .failure(refused)
            return CallEnding(failure: APIError<NoModuleCodes, NoModuleCodes>.client(refused), request: request)
        }
        let options = CallOptions(
            operationID: operationID, requiresAuthentication: !unauthenticatedOperations.contains(operationID),
            codes: codes, savedAnswers: savedAnswerRules[operationID])
        do {
            let body = try await BodyCollection.replayable(body, upTo: pipeline.maximumResponseBytes)
            let answer = try await withoutActuallyEscaping(next) { next in
                // Lent, not escaped: given back before this returns (see `BorrowedNext`).
                let borrowed = BorrowedNext(next)
                defer { borrowed.revoke() }
                let send = CallRunner.middlewares(pipeline.middlewares) { request, body, url, _ in
                    try await borrowed.send(request, body, url)
                }
                return try await runner.coalesce(
                    CallContext(
                        request: request, body: body, baseURL: baseURL, options: options, record: record, send: send,
                        sendIsBorrowed: true))
            }
            if let business = businessFailure?(answer.body, answer.parsed, answer.response) {
                let failure = pipeline.redacted(business.logged, request: request, record: record)
                result = .failure(pipeline.redacted(surfaced: business.thrown, request: request, record: record))
                return CallEnding(failure: failure, request: request, status: answer.status)
            }
            var handedOn = answer.body
            var repairs = 0
            if let repairer {
                let repaired: RepairedBody
                do throws(DecodingFailure) {
                    repaired = try repairer.repair(
                        handedOn, operationID: operationID, status: answer.status.code,
                        contentType: answer.response.headerFields[.contentType])
                } catch {
                    if let saved = answer.saved {
                        // A saved answer that no longer repairs stands in for nothing.
                        return standInFailed(saved, request: request, record: record, result: &result)
                    }
                    let failure = pipeline.redacted(
                        APIError<NoModuleCodes, NoModuleCodes>.decoding(error), request: request, record: record)
                    result = .failure(failure)
                    return CallEnding(failure: failure, request: request, status: answer.status)
                }
                handedOn = repaired.body
                repairs = repaired.repairs.count
                pipeline.recordDrift(repaired.repairs, operation: operationID, request: request, record: record)
                if let reason = repaired.undescribed { sayUndescribed(operationID, reason) }
            }
            let failure: APIError<NoModuleCodes, NoModuleCodes>? =
                answer.status.code >= 400 ? .http(HTTPFailure(status: answer.status)) : nil
            if failure == nil { answer.pendingSave?.commit() }
            var response = answer.response
            var ending = CallEnding(failure: failure, request: request, status: answer.status, repairs: repairs)
            if let saved = answer.saved {
                response.headerFields[.age] = String(saved.age.components.seconds)
                ending.savedAnswer = CallEnding.SavedAnswer(age: saved.age, standsInFor: Self.failure(of: saved).groupingIdentifier)
            }
            result = .success((response, HTTPBody(handedOn)))
            return ending
        } catch {
            let failure = pipeline.redacted(APIError<NoModuleCodes, NoModuleCodes>(thrown: error), request: request, record: record)
            result = .failure(pipeline.redacted(surfaced: Self.surfaced(error), request: request, record: record))
            return CallEnding(failure: failure, request: request)
        }
    }

    /// Ends a call whose saved answer could not be repaired with the failure it stood in for.
    private func standInFailed(
        _ saved: SavedAnswerServing, request: HTTPRequest, record: CallRecord, result: inout Result<(HTTPResponse, HTTPBody?), any Error>?
    ) -> CallEnding {
        let failure = pipeline.redacted(Self.failure(of: saved), request: request, record: record)
        switch saved.failure {
        case .thrown(let error):
            result = .failure(pipeline.redacted(surfaced: Self.surfaced(error), request: request, record: record))
            return CallEnding(failure: failure, request: request)
        case .answer(let failed):
            result = .success((failed.response, HTTPBody(failed.body)))
            return CallEnding(failure: failure, request: request, status: failed.status)
        }
    }

    /// The failure a saved answer stood in for, as logs and metrics report it.
    private static func failure(of saved: SavedAnswerServing) -> APIError<NoModuleCodes, NoModuleCodes> {
        switch saved.failure {
        case .thrown(let error): APIError<NoModuleCodes, NoModuleCodes>(thrown: error)
        case .answer(let failed): .http(HTTPFailure(status: failed.status))
        }
    }

    /// Says once per operation, at `warning` on the pipeline's logger, that ``repairer`` does
    /// not describe its responses, so their bodies go to the generated code unread.
    private func sayUndescribed(_ operationID: String, _ reason: String) {
        let first = undescribed.withLock { $0.insert(operationID).inserted }
        guard first, let logging = pipeline.logging else { return }
        logging.logger.warning(
            "\(OneLine.text(operationID, limit: 100)): responses not repaired: \(OneLine.text(reason, limit: 200))",
            metadata: ["operation": .string(operationID)])
    }

    /// The error a generated client's caller sees: a refresh's own error when it failed
    /// transiently, else what was thrown.
    private static func surfaced(_ error: any Error) -> any Error {
        if let interrupted = error as? RefreshInterrupted { return interrupted.error }
        return error
    }
}
