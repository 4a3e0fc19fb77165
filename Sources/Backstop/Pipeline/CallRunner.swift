import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Runs calls through the stages of a ``ClientPipeline``, in the one order Backstop fixes:
/// ``APIClient`` and ``PipelineMiddleware`` both run every call here.
///
/// The stages are the methods of this file, outermost first, each introduced by a line
/// `Stage n, name:`. Every doc comment and article that lists the stages is checked against
/// these lines (`StageOrderTests`), so the order is written once: here. A stage's own rules
/// live beside its configuration (`CallRunner+Retry.swift`, `CallRunner+CircuitBreaker.swift`,
/// `CallRunner+Hedging.swift`); this file only says what runs inside what.
///
/// A class, made once per client or middleware and never per call: a hedged call's attempt
/// tasks and a timeout's child capture it with one retain instead of a copy of the pipeline.
final class CallRunner: Sendable {
    /// The configuration every stage reads.
    let pipeline: ClientPipeline
    /// Where the tasks a call starts for its attempts (a timeout's, hedging's) run once they
    /// wake: on the transport's own threads when it has some (``TaskPlacing``).
    let placement: TaskPlacement
    /// The transport, when it keeps deadlines itself (``DeadlineKeeping``) and no middleware
    /// stands in front of it: a call's total timeout then needs no task of its own.
    let deadlineKeeper: (any DeadlineKeeping)?

    init(_ pipeline: ClientPipeline, placement: TaskPlacement = .global, deadlineKeeper: (any DeadlineKeeping)? = nil) {
        self.pipeline = pipeline
        self.placement = placement
        self.deadlineKeeper = deadlineKeeper
        // The session removes its user's answers from the store the calls save to.
        if let savedAnswers = pipeline.savedAnswers, let authentication = pipeline.authentication {
            authentication.stage.keepsSavedAnswers(in: savedAnswers.store)
        }
    }

    /// Stage 1, observation: one span, one log line and one set of metrics per call, whatever
    /// happens inside. `call` makes the call's context and runs it from ``coalesce(_:)`` down,
    /// then makes the answer the entry point's own (``APIClient`` decodes it inside, so a
    /// payload that cannot be decoded is the call's outcome too), keeping what its caller gets
    /// and answering what is reported.
    func observe(
        method: HTTPRequest.Method, operationID: String, path: @autoclosure () -> String,
        traced: () -> TracedCall,
        _ call: (CallRecord) async -> CallEnding
    ) async {
        guard let tracing = pipeline.tracing, tracing.tracer.isTracing else {
            return await observed(method: method, operationID: operationID, path: path(), span: nil, call)
        }
        await tracing.tracer.withCallSpan(traced) { span in
            await observed(method: method, operationID: operationID, path: path(), span: span, call)
        }
    }

    /// Stage 2, coalescing: an identical GET in flight (same absolute URL, header fields and
    /// credential) answers this call too; see ``RequestCoalescing``. Below it, the request
    /// carries the call's own trace context.
    func coalesce(_ call: CallContext) async throws -> Answer {
        guard let coalescing = pipeline.coalescing, call.request.method == .get, call.body == nil else {
            return try await answerSaved(call.tracedForSending())
        }
        let key = RequestCoalescing.Key(call, credential: credential(of: call))
        return try await coalescing.answer(for: key) { flight in
            var call = call
            call.flight = flight
            return try await answerSaved(call.tracedForSending())
        }
    }

    /// Stage 3, saved answers: saves a call's good answer, revalidates it, and answers it when a
    /// later call fails because of the backend or the network; see ``SavedAnswers``. Inside
    /// coalescing, so the calls that share an exchange share its saved answer too; outside the
    /// concurrency limit, app-wide codes, the total timeout and the circuit breaker, so a full
    /// queue, a maintenance code, a call out of time and an open circuit are each answered from
    /// the store, the last at once, without touching the network.
    func answerSaved(_ call: CallContext) async throws -> Answer {
        guard let savedAnswers = pipeline.savedAnswers, let plan = savedAnswerPlan(for: call, in: savedAnswers) else {
            return try await limit(call)
        }
        return try await answered(call, plan: plan, savedAnswers: savedAnswers)
    }

    /// Stage 4, concurrency limit: waits for a turn, or fails at once when the queue is full;
    /// see ``ConcurrencyLimit``. Outside the timeout, so waiting does not use up the call's time.
    func limit(_ call: CallContext) async throws -> Answer {
        guard let concurrencyLimit = pipeline.concurrencyLimit else { return try await publishCodes(call) }
        return try await concurrencyLimit.run { try await publishCodes(call) }
    }

    /// Stage 5, app-wide codes: the call's final answer, once per call, not per attempt; see
    /// ``GeneralCodeEvents``.
    func publishCodes(_ call: CallContext) async throws -> Answer {
        let answer = try await timeout(call)
        pipeline.generalCodes?.observe(answer.role)
        return answer
    }

    /// Stage 6, total timeout: bounds the call, retries and backoff included; the endpoint's
    /// own ``Endpoint/timeout`` replaces ``ClientPipeline/timeout``. On the system's clocks the
    /// stages below keep the deadline (``CallDeadline``) where they can: hedging's race, which
    /// can end each of its attempts, or a transport that keeps deadlines itself; retry bounds its
    /// waits by it. Any other call runs in a task the deadline cancels.
    func timeout(_ call: CallContext) async throws -> Answer {
        guard let timeout = call.options.timeout ?? pipeline.timeout else { return try await retry(call) }
        let hedged = isHedged(call)
        let keeper = hedged ? nil : deadlineKeeper(for: call)
        guard hedged || keeper != nil, let deadline = CallDeadline(timeout, on: pipeline.timeoutClock) else {
            return try await withTimeout(timeout, clock: pipeline.timeoutClock, placement: placement) { try await self.retry(call) }
        }
        var call = call
        call.deadline = deadline
        if let keeper { call.send = send(through: keeper, within: deadline, cancelledBy: nil) }
        let ticket = DeadlineTimers.timeouts.schedule(deadline, at: deadline.uptime)
        do {
            let answer = try await retry(call)
            DeadlineTimers.timeouts.cancel(ticket)
            return answer
        } catch {
            // As a timeout's task: a failure once the deadline has passed is the timeout, whether
            // the timer or the transport's own deadline ended the attempt.
            guard DeadlineTimers.timeouts.cancel(ticket), !deadline.hasPassed else { throw deadline.failure }
            throw error
        }
    }

    /// Stage 7, retry: attempts again what ``RetryPolicy`` retries, within the ``RetryBudget``.
    func retry(_ call: CallContext) async throws -> Answer {
        try await retrying(call) { call in try await breakCircuit(call) }
    }

    /// Stage 8, circuit breaker: refuses an attempt at once while its circuit is open, and
    /// counts each attempt's outcome; see ``CircuitBreaker``. Inside retry, so it counts
    /// attempts, and a retry that meets an open circuit ends the call at once.
    func breakCircuit(_ call: CallContext) async throws -> Answer {
        guard let circuitBreaker = pipeline.circuitBreaker else { return try await hedge(call) }
        return try await guarded(call, by: circuitBreaker) { call in try await hedge(call) }
    }

    /// Stage 9, hedging: a slow idempotent attempt gets a twin, each of them authenticated
    /// (``authenticate(_:)``), and the first answer the retry rules would not retry wins;
    /// see ``Hedging``.
    func hedge(_ call: CallContext) async throws -> Answer {
        guard let hedging = pipeline.hedging, isHedged(call) else { return try await authenticate(call) }
        return try await hedged(call, by: hedging)
    }

    /// Stage 10, authentication: the credential on each attempt, refreshed once for all the
    /// calls waiting for it; see ``AuthSession``.
    func authenticate(_ call: CallContext) async throws -> Answer {
        guard let authentication = pipeline.authentication, call.options.requiresAuthentication else {
            return try await attemptTimeout(call)
        }
        let refreshes = pipeline.metrics.map { metrics in { @Sendable (outcome: String) in metrics.recordRefresh(outcome: outcome) } }
        return try await authentication.stage.authenticate(call.request, record: call.record, refreshes: refreshes) { request, credential in
            call.flight?.sends(with: credential)
            var call = call
            call.request = request
            return try await attemptTimeout(call)
        }
    }

    /// Stage 11, attempt timeout: bounds each attempt, its body included; a timed-out attempt
    /// is `.transport` `timedOut`, which retry may retry.
    func attemptTimeout(_ call: CallContext) async throws -> Answer {
        guard let attemptTimeout = pipeline.attemptTimeout else { return try await attempt(call) }
        return try await withTimeout(attemptTimeout, clock: pipeline.timeoutClock, placement: placement) { try await self.attempt(call) }
    }

    /// Stage 12, redirects: one attempt through the app's middlewares and the transport, composed
    /// once as `call.send` (``middlewares(_:before:)``, ``transport(_:)``), then again for each
    /// redirect the endpoint's or the pipeline's ``RedirectPolicy`` follows (`Redirects`), and the
    /// last response's body read whole, within ``ClientPipeline/maximumResponseBytes``, and
    /// parsed for its codes.
    func attempt(_ call: CallContext) async throws -> Answer {
        call.record.recordAttempt()
        let (response, responseBody) = try await Redirects.send(
            call.request, body: call.body, baseURL: call.baseURL, operationID: call.options.operationID,
            policy: call.options.redirects ?? pipeline.redirects, send: call.send)
        let data = try await BodyCollection.collect(responseBody, upTo: pipeline.maximumResponseBytes)
        guard let codes = call.options.codes else { return Answer(response: response, body: data) }
        return await placement.parsing(size: data.count) { codes.answer(response, body: data) }
    }

    /// Stage 13, the app's middlewares: ``ClientPipeline/middlewares``, first to last, in front
    /// of `next`, composed as a generated client composes them, once per client.
    static func middlewares(_ middlewares: [any ClientMiddleware], before next: @escaping CallContext.Send) -> CallContext.Send {
        var send = next
        for middleware in middlewares.reversed() {
            let inner = send
            send = { request, body, url, operationID in
                try await middleware.intercept(request, body: body, baseURL: url, operationID: operationID) { request, body, url in
                    try await inner(request, body, url, operationID)
                }
            }
        }
        return send
    }

    /// Stage 14, transport: ``APIClient``'s `ClientTransport` sends the request; through
    /// ``PipelineMiddleware``, the rest of the generated client's chain does. Backstop's
    /// transports hand redirects back to stage 12 rather than following them.
    static func transport(_ transport: any ClientTransport) -> CallContext.Send {
        { request, body, url, operationID in try await transport.send(request, body: body, baseURL: url, operationID: operationID) }
    }
}

extension CallRunner {
    /// Where `transport` has a call's attempt tasks run: on its own threads if it says so
    /// (``TaskPlacing``), else on the global executor.
    static func placement(of transport: any ClientTransport) -> TaskPlacement {
        (transport as? any TaskPlacing)?.taskPlacement ?? .global
    }

    /// Observation around one call, inside `span` if traced.
    private func observed(
        method: HTTPRequest.Method, operationID: String, path: @autoclosure () -> String, span: (any CallSpan)?,
        _ call: (CallRecord) async -> CallEnding
    ) async {
        let start = ContinuousClock.now
        let record = CallRecord(span: span)
        let ending = await call(record)
        // The call has ended: from here on its outcome is only reported.
        let failure = ending.failure
        if let saved = ending.savedAnswer { span?.recordSavedAnswer(age: saved.age, standsInFor: saved.standsInFor) }
        span?.recordEnd(status: ending.status, errorType: failure?.groupingIdentifier)
        if pipeline.observes {
            var outcome = RequestOutcome(
                method: method, path: ending.request?.path ?? path(), operationID: operationID, status: ending.status,
                duration: ContinuousClock.now - start, attempts: record.attempts, retries: record.retries,
                repairs: ending.repairs)
            outcome.savedAnswer = ending.savedAnswer
            if let failure { outcome.fail(with: failure) }
            pipeline.report(outcome, request: ending.request, record: record)
        }
    }

    /// The transport that keeps `call`'s deadline itself, when nothing in front of it could
    /// outlive the deadline: there is one (``deadlineKeeper``) and the call does not wait on
    /// authentication, whose refresh runs the app's own code.
    func deadlineKeeper(for call: CallContext) -> (any DeadlineKeeping)? {
        guard let deadlineKeeper, pipeline.authentication == nil || !call.options.requiresAuthentication else { return nil }
        return deadlineKeeper
    }

    /// `keeper`'s own exchange as a call's `send`, for a call with nothing in front of it: each
    /// exchange ends when `deadline` passes, if there is one, or when `cancellation` is cancelled,
    /// and reads no more of the body than ``ClientPipeline/maximumResponseBytes``.
    func send(
        through keeper: any DeadlineKeeping, within deadline: CallDeadline?, cancelledBy cancellation: ExchangeCancellation?
    ) -> CallContext.Send {
        let limit = pipeline.maximumResponseBytes
        return { request, body, baseURL, operationID in
            if let deadline, deadline.hasPassed { throw deadline.failure }
            return try await keeper.send(
                request, body: body, baseURL: baseURL, operationID: operationID, within: deadline?.remaining, upTo: limit,
                cancelledBy: cancellation)
        }
    }

    /// Who the call's answer is for, when it carries the session's credential: calls for two
    /// sessions, or for one session across a sign-out or sign-in, never share an answer; a
    /// refresh keeps the user, and the answer shared.
    private func credential(of call: CallContext) -> RequestCoalescing.Credential? {
        guard let authentication = pipeline.authentication, call.options.requiresAuthentication else { return nil }
        return authentication.stage.credentialIdentity
    }
}
