import BackstopJSON
import Foundation

extension APIClient {
    /// The saved answer of `endpoint` at once, if there is one young enough, then the
    /// backend's: for a screen that shows data at once and updates it.
    ///
    /// ```swift
    /// let groups = Endpoint<[StudyGroup], StudyGroupCode>(.get, "groups")
    /// for try await response in client.savedThenFresh(groups) {
    ///     show(response.payload)
    ///     if let saved = response.savedAnswer { showBanner(RecoveryPolicy.standard.notice(for: saved).message) }
    /// }
    /// ```
    ///
    /// The first element, when the pipeline has ``ClientPipeline/savedAnswers`` and a saved
    /// answer of the endpoint no older than its maximum age decodes, is that answer, its
    /// ``APIResponse/savedAnswer`` set with no failure and no attempt made. The call then runs
    /// as ``response(for:)`` runs it, and its response is the last element: fresh, or a saved
    /// answer standing in for the call's failure; an error the call throws (an ``APIError`` of
    /// the endpoint's codes) ends the sequence. Ending the iteration cancels the call.
    public func savedThenFresh<Payload, Module>(
        _ endpoint: Endpoint<Payload, Module>
    ) -> AsyncThrowingStream<APIResponse<Payload>, any Error> {
        let client = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                if let saved = await client.core.savedResponse(for: endpoint) { continuation.yield(saved) }
                do {
                    continuation.yield(try await client.response(for: endpoint))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension APIClient.Core {
    /// The saved answer of `endpoint`, decoded, when there is one young enough; read from the
    /// store alone, nothing sent.
    func savedResponse<Payload, Module>(for endpoint: Endpoint<Payload, Module>) async -> APIResponse<Payload>? {
        guard let savedAnswers = pipeline.savedAnswers, let (request, body) = try? makeRequest(for: endpoint) else { return nil }
        let contract = endpoint.contract ?? self.contract
        let codes = endpoint.contract.map { CodeReader(contract: $0, generalCodes: General.self, decoder: decoder) } ?? codes
        let options = CallOptions(
            operationID: endpoint.operationID, retry: endpoint.retry, isIdempotent: endpoint.isIdempotent,
            requiresAuthentication: endpoint.requiresAuthentication, timeout: endpoint.timeout, codes: codes,
            redirects: endpoint.redirects, savedAnswers: endpoint.savedAnswers)
        let call = CallContext(
            request: request, body: body, baseURL: baseURL, options: options, record: CallRecord(), send: send, sendIsBorrowed: false)
        guard let plan = runner.savedAnswerPlan(for: call, in: savedAnswers), let saved = await savedAnswers.store.answer(for: plan.key)
        else { return nil }
        let age = CallRunner.duration(from: saved.savedAt, to: pipeline.now())
        guard age <= plan.maximumAge else { return nil }
        let answer = CallRunner.answer(from: saved, codes: codes)
        var repairs: [Repair] = []
        do throws(APIError<General, Module>) {
            let payload = try contract.unwrap(
                Payload.self, from: answer.body, parsed: answer.parsed?.reading(with: reader), response: answer.response,
                decoder: decoder, repairs: &repairs, throwing: APIError<General, Module>.self)
            return APIResponse(
                status: answer.status, headerFields: answer.response.headerFields, payload: payload, repairs: repairs, attempts: 0,
                duration: .zero, savedAnswer: SavedAnswerUse(savedAt: saved.savedAt, age: age, failure: nil))
        } catch {
            return nil
        }
    }
}
