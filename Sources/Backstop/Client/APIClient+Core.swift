import BackstopJSON
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// What a client's calls read, made once from its properties: its runner, composed send,
    /// frozen decoder and code reader beside the properties they come from.
    ///
    /// Immutable, so a client stays a value: setting a property makes a new one.
    final class Core: Sendable {
        let baseURL: URL
        /// Read once, not on every call: Foundation parses the URL to answer it.
        let baseURLHasHost: Bool
        let contract: any ResponseContract
        let decoder: ResilientJSONDecoder
        /// ``decoder`` frozen, and the codes of ``contract`` read with it.
        let reader: ParsedJSON.Reader
        let codes: CodeReader
        let pipeline: ClientPipeline
        let transport: any ClientTransport
        /// Runs each call through ``pipeline``'s stages.
        let runner: CallRunner
        /// The app's middlewares and the transport, composed once.
        let send: CallContext.Send

        init(
            baseURL: URL, contract: any ResponseContract, decoder: ResilientJSONDecoder, pipeline: ClientPipeline,
            transport: any ClientTransport
        ) {
            self.baseURL = baseURL
            baseURLHasHost = baseURL.absoluteURL.host != nil
            self.contract = contract
            self.decoder = decoder
            reader = ParsedJSON.Reader(decoder)
            codes = CodeReader(contract: contract, generalCodes: General.self, decoder: decoder)
            self.pipeline = pipeline
            self.transport = transport
            (runner, send) = Self.compose(pipeline, transport)
        }

        /// The runner of `pipeline`'s stages, placing attempt tasks as `transport` asks and letting
        /// it keep deadlines where it can and no middleware stands in front of it, and the app's
        /// middlewares composed in front of `transport`.
        private static func compose(_ pipeline: ClientPipeline, _ transport: any ClientTransport) -> (CallRunner, CallContext.Send) {
            let keeper = pipeline.middlewares.isEmpty ? transport as? any DeadlineKeeping : nil
            return (
                CallRunner(pipeline, placement: CallRunner.placement(of: transport), deadlineKeeper: keeper),
                CallRunner.middlewares(pipeline.middlewares, before: CallRunner.transport(transport))
            )
        }

        /// The call of `endpoint` from its request's making down through coalescing, and its payload
        /// decoded into `result`; answers what observation reports of it.
        func call<Payload, Module>(
            _ endpoint: Endpoint<Payload, Module>,
            record: CallRecord, result: inout Result<APIResponse<Payload>, APIError<General, Module>>?
        ) async -> CallEnding {
            let start = ContinuousClock.now
            let contract = endpoint.contract ?? self.contract
            let codes = endpoint.contract.map { CodeReader(contract: $0, generalCodes: General.self, decoder: decoder) } ?? codes
            var request: HTTPRequest?
            var status: HTTPResponse.Status?
            do throws(APIError<General, Module>) {
                let (made, body) = try makeRequest(for: endpoint)
                request = made
                let options = CallOptions(
                    operationID: endpoint.operationID, retry: endpoint.retry, isIdempotent: endpoint.isIdempotent,
                    requiresAuthentication: endpoint.requiresAuthentication, timeout: endpoint.timeout,
                    codes: codes,
                    redirects: endpoint.redirects, savedAnswers: endpoint.savedAnswers)
                let answer: Answer
                do {
                    answer = try await runner.coalesce(
                        CallContext(
                            request: made, body: body, baseURL: baseURL, options: options, record: record, send: send,
                            sendIsBorrowed: false))
                } catch {
                    throw APIError<General, Module>(thrown: error)
                }
                status = answer.status
                // The pipeline parsed the body to read its code; decoding reads the same parse.
                var repairs: [Repair] = []
                let payload: Payload
                do throws(APIError<General, Module>) {
                    payload = try contract.unwrap(
                        Payload.self, from: answer.body, parsed: answer.parsed?.reading(with: reader),
                        response: answer.response, decoder: decoder, repairs: &repairs, throwing: APIError<General, Module>.self)
                } catch {
                    // A saved answer that no longer decodes stands in for nothing: the call ends
                    // with the failure it stood in for.
                    if let saved = answer.saved { throw failure(standingInFor: saved, contract: contract, endpoint) }
                    throw error
                }
                answer.pendingSave?.commit()
                pipeline.recordDrift(repairs, operation: endpoint.operationID, request: request, record: record)
                let savedAnswer = answer.saved.map { saved in
                    SavedAnswerUse(
                        savedAt: saved.savedAt, age: saved.age,
                        failure: pipeline.redacted(
                            failure(standingInFor: saved, contract: contract, endpoint), request: request, record: record))
                }
                result = .success(
                    APIResponse(
                        status: answer.status, headerFields: answer.response.headerFields,
                        payload: payload, repairs: repairs,
                        attempts: record.attempts, duration: ContinuousClock.now - start, savedAnswer: savedAnswer))
                var ending = CallEnding(request: made, status: status, repairs: repairs.count)
                ending.savedAnswer = answer.saved.map { saved in
                    CallEnding.SavedAnswer(
                        age: saved.age, standsInFor: (savedAnswer?.failure as? any ReportedFailure)?.groupingIdentifier)
                }
                return ending
            } catch {
                if case .http(let failure) = error { status = failure.status }
                let redacted = pipeline.redacted(error, request: request, record: record)
                result = .failure(redacted)
                return CallEnding(failure: redacted, request: request, status: status)
            }
        }

        /// The error the call would have ended with, had no saved answer stood in for it.
        private func failure<Payload, Module>(
            standingInFor saved: SavedAnswerServing, contract: any ResponseContract, _ endpoint: Endpoint<Payload, Module>
        ) -> APIError<General, Module> {
            switch saved.failure {
            case .thrown(let error):
                return APIError<General, Module>(thrown: error)
            case .answer(let failed):
                var repairs: [Repair] = []
                do throws(APIError<General, Module>) {
                    _ = try contract.unwrap(
                        Payload.self, from: failed.body, parsed: failed.parsed?.reading(with: reader), response: failed.response,
                        decoder: decoder, repairs: &repairs, throwing: APIError<General, Module>.self)
                } catch {
                    return error
                }
                // A maintenance code in an envelope the contract reads as a success.
                return .http(HTTPFailure(status: failed.status))
            }
        }
    }
}
