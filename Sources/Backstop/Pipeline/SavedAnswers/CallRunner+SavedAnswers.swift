import Foundation
import HTTPTypes

extension CallRunner {
    /// The methods whose requests are idempotent, for a call whose endpoint does not say.
    private static let idempotentMethods: Set<HTTPRequest.Method> = [.get, .head, .put, .delete, .options, .trace]

    /// What the saved-answer stage does for `call`, or `nil` when it does nothing: the call's
    /// answers are not saved (its method or its endpoint's rule), its session is signed out, or
    /// its URL cannot be read.
    func savedAnswerPlan(for call: CallContext, in savedAnswers: SavedAnswers) -> SavedAnswerPlan? {
        let rule = call.options.savedAnswers
        guard rule?.isSaved ?? (call.request.method == .get) else { return nil }
        var user: String?
        var isCurrent: @Sendable () -> Bool = { true }
        if let authentication = pipeline.authentication, call.options.requiresAuthentication {
            // Signed out: the call fails as such, and nobody's answer may stand in for it.
            guard let name = authentication.stage.savedAnswerUser else { return nil }
            user = name
            let stage = authentication.stage
            isCurrent = { stage.savedAnswerUser == name }
        }
        let key = SavedAnswerKey(
            method: call.request.method.rawValue, url: savedAnswerURL(of: call),
            representation: representation(of: call.request, naming: savedAnswers.representationFields), user: user)
        let method = call.request.method
        return SavedAnswerPlan(
            key: key, answers: call.options.isIdempotent ?? Self.idempotentMethods.contains(method),
            maximumAge: rule?.maximumAge ?? savedAnswers.maximumAge, isCurrent: isCurrent)
    }

    /// The saved-answer stage's rules around the stages below it (``answerSaved(_:)``).
    func answered(_ call: CallContext, plan: SavedAnswerPlan, savedAnswers: SavedAnswers) async throws -> Answer {
        let store = savedAnswers.store
        var call = call
        var found: SavedAnswer??
        var validated: SavedAnswer?
        if savedAnswers.revalidates, store.mayHoldRevalidatableAnswers {
            let saved = await store.answer(for: plan.key)
            found = .some(saved)
            // A request the app made conditional itself gets its own answer, 304 included.
            if let saved, saved.isRevalidatable, call.request.headerFields[.ifNoneMatch] == nil,
                call.request.headerFields[.ifModifiedSince] == nil
            {
                if let entityTag = saved.entityTag { call.request.headerFields[.ifNoneMatch] = entityTag }
                if let lastModified = saved.lastModified { call.request.headerFields[.ifModifiedSince] = lastModified }
                validated = saved
            }
        }
        let answer: Answer
        do {
            answer = try await limit(call)
        } catch {
            guard plan.answers, !Task.isCancelled, Self.isStoodInFor(error) else { throw error }
            let saved = if let found { found } else { await store.answer(for: plan.key) }
            guard let standIn = standIn(saved, plan: plan, for: .thrown(error), call: call) else { throw error }
            return standIn
        }
        if answer.status.code == 304, let validated {
            return revalidated(validated, by: answer, plan: plan, call: call, store: store)
        }
        if Self.isStoodInFor(answer) {
            guard plan.answers, !Task.isCancelled else { return answer }
            let saved = if let found { found } else { await store.answer(for: plan.key) }
            return standIn(saved, plan: plan, for: .answer(answer), call: call) ?? answer
        }
        guard (200..<300).contains(answer.status.code), answer.role == nil, let kept = Self.keptFields(of: answer.response) else {
            return answer
        }
        var saving = answer
        saving.pendingSave = PendingSave(
            SavedAnswer(
                key: plan.key, status: answer.status.code, contentType: kept.contentType, entityTag: kept.entityTag,
                lastModified: kept.lastModified, body: answer.body, savedAt: pipeline.now()),
            in: store, isCurrent: plan.isCurrent, report: savedAnswerReport(operation: call.options.operationID))
        return saving
    }

    /// Whether a failure the stages threw is one a saved answer stands in for: one of the
    /// network or the backend (offline, a timeout, a host that cannot be reached, a connection
    /// lost), an open circuit, a full concurrency queue. Not a cancelled call, a session that
    /// cannot authenticate, a TLS failure, or anything the app's code threw.
    static func isStoodInFor(_ error: any Error) -> Bool {
        switch error {
        case let failure as ClientFailure:
            return failure.reason == .circuitOpen || failure.reason == .tooManyCalls || failure.reason == .noNetwork
        case is AuthenticationError, is RefreshInterrupted, is CancellationError:
            return false
        default:
            switch TransportFailure(error).reason {
            case .offline, .timedOut, .cannotFindHost, .cannotConnectToHost, .connectionLost: return true
            case .cancelled, .tlsFailure, .other: return false
            }
        }
    }

    /// Whether an answer is a failure a saved answer stands in for: a 5xx the backend failed
    /// with (``CircuitBreaker/isBackendFailure(_:)``), or a general code with the `maintenance`
    /// role. Never a 4xx, nor a business code of another role.
    static func isStoodInFor(_ answer: Answer) -> Bool {
        if answer.role == .maintenance { return true }
        let status = answer.status.code
        return status >= 500 && CircuitBreaker.isBackendFailure(.status(status))
    }

    /// The header fields a saved answer keeps of `response`, each field's values joined as
    /// HTTP joins them, or `nil` when the response says it must not be kept
    /// (`Cache-Control: no-store`). One pass over the fields: each call that saves pays it.
    static func keptFields(of response: HTTPResponse) -> (contentType: String?, entityTag: String?, lastModified: String?)? {
        var contentType: String?
        var entityTag: String?
        var lastModified: String?
        func joined(_ kept: String?, _ value: String) -> String { kept.map { $0 + ", " + value } ?? value }
        for field in response.headerFields {
            switch field.name {
            case .contentType: contentType = joined(contentType, field.value)
            case .eTag: entityTag = joined(entityTag, field.value)
            case .lastModified: lastModified = joined(lastModified, field.value)
            case .cacheControl:
                let noStore = field.value.split(separator: ",").contains {
                    $0.trimmingCharacters(in: .whitespaces).lowercased() == "no-store"
                }
                if noStore { return nil }
            default: continue
            }
        }
        return (contentType, entityTag, lastModified)
    }

    /// `saved` as the answer of a call that failed with `failure`, when it is young enough.
    private func standIn(_ saved: SavedAnswer?, plan: SavedAnswerPlan, for failure: SavedAnswerServing.Failure, call: CallContext)
        -> Answer?
    {
        guard let saved else { return nil }
        let age = Self.duration(from: saved.savedAt, to: pipeline.now())
        guard age <= plan.maximumAge else { return nil }
        var answer = Self.answer(from: saved, codes: call.options.codes)
        answer.saved = SavedAnswerServing(savedAt: saved.savedAt, age: age, failure: failure)
        pipeline.metrics?.recordSavedAnswer(operation: call.options.operationID, outcome: "answered")
        return answer
    }

    /// The saved answer a `304 Not Modified` said is still good, renewed in the store and
    /// answered as fresh; the 304's own validators, when it sent new ones, replace the old.
    private func revalidated(
        _ saved: SavedAnswer, by notModified: Answer, plan: SavedAnswerPlan, call: CallContext, store: any SavedAnswerStore
    ) -> Answer {
        var renewed = saved
        renewed.savedAt = pipeline.now()
        let fields = notModified.response.headerFields
        if let entityTag = fields[.eTag] { renewed.entityTag = entityTag }
        if let lastModified = fields[.lastModified] { renewed.lastModified = lastModified }
        let report = savedAnswerReport(operation: call.options.operationID)
        _ = PendingSave.save(renewed, in: store, isCurrent: plan.isCurrent) { report?("evicted", $0) }
        report?("revalidated", 1)
        return Self.answer(from: renewed, codes: call.options.codes)
    }

    /// Counts saved-answer outcomes of `operation` in the pipeline's metrics, if it has them.
    private func savedAnswerReport(operation: String) -> (@Sendable (String, Int) -> Void)? {
        guard let metrics = pipeline.metrics else { return nil }
        return { outcome, count in metrics.recordSavedAnswer(operation: operation, outcome: outcome, count: count) }
    }

    /// `saved` as an answer the entry points read as they read the backend's: its status and
    /// header fields, its body parsed for its codes.
    static func answer(from saved: SavedAnswer, codes: CodeReader?) -> Answer {
        var fields = HTTPFields()
        if let contentType = saved.contentType { fields[.contentType] = contentType }
        if let entityTag = saved.entityTag { fields[.eTag] = entityTag }
        if let lastModified = saved.lastModified { fields[.lastModified] = lastModified }
        let response = HTTPResponse(status: HTTPResponse.Status(code: saved.status), headerFields: fields)
        return codes?.answer(response, body: saved.body) ?? Answer(response: response, body: saved.body)
    }

    /// The absolute URL of `call`'s request, its secret query items' values replaced.
    private func savedAnswerURL(of call: CallContext) -> String {
        var base = call.baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        let path = call.request.path ?? ""
        let url = base + (path.hasPrefix("/") || path.isEmpty ? path : "/" + path)
        // Bytes, not Foundation's `contains`, which costs a call more than the rest of its key.
        guard path.utf8.contains(UInt8(ascii: "?")), let parsed = URL(string: url) else { return url }
        return pipeline.redaction.redacted(url: parsed)
    }

    /// The representation's header fields of `request`, `name: value`, never a secret one.
    private func representation(of request: HTTPRequest, naming named: Set<HTTPField.Name>) -> [String] {
        var fields: [String] = []
        for field in request.headerFields {
            let name = field.name
            guard name == .accept || name == .acceptLanguage || (!named.isEmpty && named.contains(name)) else { continue }
            if !pipeline.redaction.isSecret(name) { fields.append(name.canonicalName + ": " + field.value) }
        }
        return fields
    }

    /// From `start` to `end`, never below zero: a clock set back makes an answer no younger.
    static func duration(from start: Date, to end: Date) -> Duration {
        let seconds = max(end.timeIntervalSince(start), 0)
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
