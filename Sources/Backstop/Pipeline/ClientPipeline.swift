import Foundation
import OpenAPIRuntime

/// The stages every call goes through, configured by value and run in an order Backstop fixes.
///
/// ```swift
/// var pipeline = ClientPipeline()
/// pipeline.timeout = .seconds(30)
/// pipeline.authentication = .session(session)
/// pipeline.generalCodes = GeneralCodeEvents(roles: [.maintenance])
/// let client = APIClient<AppCode>(baseURL: baseURL, contract: backendB, pipeline: pipeline)
/// ```
///
/// An app says what each stage does; it never orders them. Outermost first:
/// 1. **Observation**: ``logging``, ``metrics`` and ``tracing`` see each call once, with its
///    attempts, retries and outcome, whatever happens inside.
/// 2. **Coalescing**: ``coalescing`` lets an identical GET already in flight answer a call.
/// 3. **Saved answers**: ``savedAnswers`` saves each call's good answer, and answers it when a
///    later call fails because of the backend or the network, saying so.
/// 4. **Concurrency limit**: ``concurrencyLimit`` lets so many calls in at once and queues the rest.
/// 5. **App-wide codes**: ``generalCodes`` hears the final answer of each call.
/// 6. **Total timeout**: ``timeout`` bounds the whole call, retries and backoff included.
/// 7. **Retry**: ``retry`` within ``retryBudget``.
/// 8. **Circuit breaker**: ``circuitBreaker`` refuses attempts at once while their backend is
///    failing, and counts each attempt's outcome.
/// 9. **Hedging**: ``hedging`` sends an idempotent request again beside a slow attempt.
/// 10. **Authentication**: ``authentication`` puts the credential on each attempt and refreshes it.
/// 11. **Attempt timeout**: ``attemptTimeout`` bounds each attempt.
/// 12. **Redirects**: ``redirects`` follows the redirects an attempt is answered with, each
///     through the middlewares and the transport again.
/// 13. **The app's middlewares**: ``middlewares``, first to last, around each attempt.
/// 14. **Transport**: the client's `ClientTransport`, or the rest of a generated client's
///     chain, which hands redirects back rather than following them.
///
/// One runner runs them in this order for ``APIClient`` and ``PipelineMiddleware`` alike; a
/// test checks this list, and every other that names the stages, against it.
///
/// The order is why the stages work together: a retry carries the credential a refresh
/// just made, a log line counts every attempt of its call, and an app-wide code is published
/// once per call, not once per attempt; the breaker counts attempts, not calls, so an outage
/// opens it within one call's retries, and a retry that meets an open circuit ends the call at
/// once; a call waiting for its turn under the concurrency limit is logged with its wait, but
/// the wait does not count against its timeout; and every failure the backend or the network
/// causes below the saved answers, an open circuit's, a full queue's, a maintenance code's and a
/// timeout's included, can be answered from them, for every call sharing a coalesced exchange.
///
/// Copies share state: ``retryBudget``, ``circuitBreaker``, ``concurrencyLimit``,
/// ``coalescing``, the store of ``savedAnswers``, the latencies ``hedging`` learns and the
/// episodes of ``generalCodes`` are the same in every copy, so clients made from one pipeline share one budget, one breaker and one
/// limit. Give a copy new values of those stages to keep it apart.
///
/// The same value serves an OpenAPI-generated client as one middleware: see
/// ``PipelineMiddleware``.
public struct ClientPipeline: Sendable {
    /// What is secret in a call, for every place its text goes: the log line, the error the
    /// caller gets, span attributes and drift samples.
    public var redaction: Redaction
    /// One line per call, at `debug` unless its ``RequestLogging/level`` says otherwise; `nil` logs nothing.
    public var logging: RequestLogging?
    /// Counts and times calls, retries, refreshes and repairs; `nil` records nothing.
    public var metrics: RequestMetrics?
    /// One span per call, with its attempts, retries and refreshes; `nil` (the default) traces
    /// nothing. `BackstopTracing` makes it (`.distributedTracing`).
    public var tracing: RequestTracing?
    /// Records each call's repairs by operation and field, for the backend team; `nil` (the
    /// default) records nothing. ``APIClient`` records what it decoded.
    public var contractDrift: ContractDriftRecorder?
    /// Lets identical GETs in flight at once share one exchange; `nil` (the default) sends each.
    /// ``APIClient`` and a generated client's calls through ``PipelineMiddleware`` coalesce.
    public var coalescing: RequestCoalescing?
    /// Saves each call's good answer and answers it, marked as saved, when a later call fails
    /// because of the backend or the network; `nil` (the default) saves nothing. See ``SavedAnswers``.
    public var savedAnswers: SavedAnswers?
    /// Bounds the calls in flight and queues the rest; `nil` (the default) bounds nothing.
    /// Share one instance between the pipelines it bounds together.
    public var concurrencyLimit: ConcurrencyLimit?
    /// Publishes app-wide codes such as maintenance once per episode; `nil` by default.
    public var generalCodes: GeneralCodeEvents?
    /// How long a whole call may take, retries and backoff included; an endpoint's own
    /// ``Endpoint/timeout`` replaces it. ``defaultTimeout`` (30 s) unless set; `nil` only when
    /// the app sets it so.
    ///
    /// A call that outlives it ends as `.transport` `timedOut`, however the server sends: a
    /// server that trickles its headers or its body a byte at a time cannot keep a call open
    /// past it, which the transports' own timeouts (URLSession's `timeoutIntervalForRequest`,
    /// an idle timeout) do not promise. On the system clocks the deadline waits in a timer shared
    /// by every call, and cancels the call's own work, never the caller's task: a hedged call's
    /// race, which ends each of its attempts; on a transport that keeps deadlines itself
    /// (``StreamingURLSessionTransport`` and `HTTPClientTransport`, with no ``middlewares`` in
    /// front of them) and a call that waits on no authentication, the exchange itself, body
    /// included: URLSession's task, or AsyncHTTPClient's request; else one task the call runs
    /// in. It is measured on ``timeoutClock``, not ``clock``.
    public var timeout: Duration?
    /// Which redirects each attempt follows, the same for every transport; an endpoint's own
    /// ``Endpoint/redirects`` replaces it. By default, up to 5 within the request's origin.
    public var redirects: RedirectPolicy
    /// When a failed attempt is made again; an endpoint's own ``Endpoint/retry`` replaces it.
    /// ``RetryPolicy/never`` turns retries off.
    public var retry: RetryPolicy
    /// The retries every call through this pipeline shares, so a failing backend gets no storm.
    public var retryBudget: RetryBudget
    /// Fails calls at once while their backend is failing; `nil` (the default) lets every call
    /// through. Share one instance between pipelines that call the same backends.
    public var circuitBreaker: CircuitBreaker?
    /// Sends an idempotent request again beside a slow attempt, the first answer winning;
    /// `nil` (the default) sends each attempt once.
    public var hedging: Hedging?
    /// Applies and refreshes the user's credential; `nil` sends requests as they are.
    public var authentication: Authentication?
    /// How long each attempt may take, its body included; a timed-out attempt is
    /// `.transport` `timedOut`, which ``retry`` may retry. `nil` by default. It is measured on
    /// ``timeoutClock``, not ``clock``.
    public var attemptTimeout: Duration?
    /// The app's own middlewares, run first to last around each attempt, inside every
    /// stage above: they see each attempt with its credential applied. On a transport that
    /// runs a call's attempts on its own threads (`HTTPClientTransport`, on SwiftNIO's event
    /// loops), they may run there: like any async code, they must not block.
    public var middlewares: [any ClientMiddleware]
    /// Bodies longer than this fail the call as `.client` `responseTooLarge`; request bodies
    /// that can be read only once are buffered up to it to be replayed.
    public var maximumResponseBytes: Int
    /// What the pipeline waits on: backoffs, `Retry-After` and hedging's delays. Tests pass
    /// swift-clocks' `ImmediateClock` to make every wait instant, or a `TestClock` to hold each
    /// wait until the test advances it. The limits (``timeout``, ``attemptTimeout``) are not
    /// measured on it but on ``timeoutClock``.
    public var clock: any Clock<Duration>
    /// What the limits, ``timeout`` and ``attemptTimeout``, are measured on: the system's time
    /// (`ContinuousClock`) unless set.
    ///
    /// Apart from ``clock`` because a wait and a limit are not alike under test: a clock whose
    /// sleeps return at once (`ImmediateClock`, a recording clock), which is how retries are
    /// tested quickly, would pass every limit at once, and every call would end as
    /// `.transport` `timedOut` before its answer came. A limit on the system's time never
    /// passes early. A test that drives a timeout itself passes its `TestClock` here too, and
    /// advances it past the limit; on the system's clocks the limits share one Dispatch timer,
    /// on any other clock the call races a sleeping child task.
    public var timeoutClock: any Clock<Duration>
    /// A number in `0…1` that picks each backoff's jitter.
    public var random: @Sendable () -> Double
    /// The wall-clock time, to read `Retry-After` dates of responses without a `Date` header.
    public var now: @Sendable () -> Date

    /// 30 s: a user waiting on a phone has given up by then, and a call's retries fit in it.
    public static var defaultTimeout: Duration { .seconds(30) }

    /// 10 MiB: far above any JSON API response, far below what hurts a phone.
    public static var defaultMaximumResponseBytes: Int { 10 << 20 }

    /// A pipeline that logs, counts and retries by the default rules, ends each call within
    /// ``defaultTimeout``, follows redirects within the request's origin, and authenticates nothing.
    public init(
        redaction: Redaction = Redaction(),
        logging: RequestLogging? = RequestLogging(),
        metrics: RequestMetrics? = RequestMetrics(),
        tracing: RequestTracing? = nil,
        contractDrift: ContractDriftRecorder? = nil,
        coalescing: RequestCoalescing? = nil,
        savedAnswers: SavedAnswers? = nil,
        concurrencyLimit: ConcurrencyLimit? = nil,
        generalCodes: GeneralCodeEvents? = nil,
        timeout: Duration? = defaultTimeout,
        redirects: RedirectPolicy = .default,
        retry: RetryPolicy = .default,
        retryBudget: RetryBudget = RetryBudget(),
        circuitBreaker: CircuitBreaker? = nil,
        hedging: Hedging? = nil,
        authentication: Authentication? = nil,
        attemptTimeout: Duration? = nil,
        middlewares: [any ClientMiddleware] = [],
        maximumResponseBytes: Int = defaultMaximumResponseBytes,
        clock: any Clock<Duration> = ContinuousClock(),
        timeoutClock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.redaction = redaction
        self.logging = logging
        self.metrics = metrics
        self.tracing = tracing
        self.contractDrift = contractDrift
        self.coalescing = coalescing
        self.savedAnswers = savedAnswers
        self.concurrencyLimit = concurrencyLimit
        self.generalCodes = generalCodes
        self.timeout = timeout
        self.redirects = redirects
        self.retry = retry
        self.retryBudget = retryBudget
        self.circuitBreaker = circuitBreaker
        self.hedging = hedging
        self.authentication = authentication
        self.attemptTimeout = attemptTimeout
        self.middlewares = middlewares
        self.maximumResponseBytes = maximumResponseBytes
        self.clock = clock
        self.timeoutClock = timeoutClock
        self.random = random
        self.now = now
    }
}
