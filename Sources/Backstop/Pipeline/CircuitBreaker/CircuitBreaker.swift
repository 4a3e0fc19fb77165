import Foundation
import Logging
import Metrics

/// The circuit-breaker stage of a ``ClientPipeline``: while a backend is failing, calls fail at
/// once on the device instead of each waiting out its attempts, and a probe finds out when it is back.
///
/// One circuit per host (or per operation, with ``Scope/operation``), shared by every call through
/// the pipelines that hold this instance:
/// - **Closed** (normal): each attempt counts as a success or a failure, or not at all.
///   Failures are what ``countsAsFailure`` says, by default what ``RetryPolicy/default``
///   retries (``isBackendFailure(_:)``): the statuses 408, 429, 500, 502, 503 and 504, the
///   transport failures `timedOut`, `connectionLost`, `cannotConnectToHost` (a refused
///   connection) and `cannotFindHost`, and the `rateLimited` role. Any other answer (a 404,
///   a 501) counts as a success: the backend answered. Any other thrown error counts for
///   nothing: a device that is offline, a TLS failure or a cancelled call says nothing of the
///   backend. When at least ``minimumThroughput`` attempts in the last ``samplingDuration``
///   failed at a ratio of ``failureRatio`` or more, the circuit opens for ``breakDuration``.
/// - It also opens **at once** on an answer that says when to come back: a 503 or 429 with
///   `Retry-After` opens it for exactly that long, shorter or longer than ``breakDuration``, a
///   `maintenance` code for its `Retry-After` or else ``breakDuration``; never longer than
///   ``maximumBreakDuration``.
/// - **Open**: calls fail without touching the network, as `.client` ``ClientFailure/Reason/circuitOpen``
///   with ``ClientFailure/retryAfter`` saying when the circuit lets a call through; the recovery
///   alert is ``RecoveryCategory/unavailable`` and says when to try again.
/// - **Half-open**, once the break is over: up to ``probes`` calls go through. A success closes
///   the circuit, a failure opens it again; the other calls still fail at once meanwhile.
///
/// Each change of state is published on ``transitions``, logged at `warning` (`info` when a
/// circuit closes) and counted in `backstop_circuit_transitions_total` (dimensions `scope`, `to`).
///
/// The defaults suit an app: .NET's standard resilience handler breaks at a 10% failure ratio
/// over at least 100 calls in 30 s, which a phone seldom makes; an app's few calls break at half
/// of at least 10, for 15 s, so a user waits out one outage instead of one per screen.
public final class CircuitBreaker: Sendable {
    /// What one circuit covers.
    public enum Scope: String, Sendable, Hashable {
        /// Every call to the same host and port.
        case host
        /// Every call with the same operation name (``Endpoint/operationID``).
        case operation
    }

    /// The state of one circuit.
    public enum State: String, Sendable, Hashable {
        /// Calls go through and are counted.
        case closed
        /// Calls fail at once until the break is over.
        case open
        /// A few probe calls go through to learn whether the backend is back.
        case halfOpen
    }

    /// One circuit's change of state.
    public struct Transition: Sendable, Hashable {
        /// The circuit: `host:port` or the operation name.
        public var circuit: String
        /// The state it left.
        public var from: State
        /// The state it entered.
        public var to: State
        /// For ``State/open``: how long the break lasts.
        public var breakDuration: Duration?

        /// A transition, as the breaker publishes it.
        public init(circuit: String, from: State, to: State, breakDuration: Duration? = nil) {
            self.circuit = circuit
            self.from = from
            self.to = to
            self.breakDuration = breakDuration
        }
    }

    /// The share of failed attempts, from 0 to 1, at which a circuit opens.
    public let failureRatio: Double
    /// The fewest attempts within ``samplingDuration`` that can open a circuit by ratio.
    public let minimumThroughput: Int
    /// How far back attempts count.
    public let samplingDuration: Duration
    /// How long a circuit stays open when the answers did not say how long.
    public let breakDuration: Duration
    /// The longest break, however long a `Retry-After` asks for.
    public let maximumBreakDuration: Duration
    /// How many calls a half-open circuit lets through at once.
    public let probes: Int
    /// What one circuit covers.
    public let scope: Scope
    /// Every change of state of every circuit from now on, in order: each access is a stream of
    /// its own, so any number of observers each hear every transition.
    ///
    /// Subscribe before the transitions you want to hear: one published while no stream is
    /// open is kept by nobody. A stream that is not read keeps only the newest 100 transitions,
    /// so a server that never reads one holds a bounded amount of memory. The streams end with
    /// the breaker.
    public var transitions: AsyncStream<Transition> { broadcast.subscribe() }
    /// Whether an attempt's failure says its backend is failing, so that it counts towards
    /// opening the circuit; ``isBackendFailure(_:)`` unless given.
    ///
    /// Asked of every status an attempt answers (`.status`), of the role of its general code
    /// (`.server`), and of the reason a request got no response (`.transport`, never
    /// `cancelled`). An answer it does not count is a success; a thrown error, nothing.
    public let countsAsFailure: @Sendable (RetryPolicy.Failure) -> Bool

    let broadcast = EventBroadcast<Transition>()
    let elapsed: @Sendable () -> Duration
    let logger: Logger?
    let factory: any MetricsFactory
    let circuits = LockedValue<[String: Circuit]>([:])
    /// The last base URL a circuit was named for, and that name: a client's calls share one, and
    /// naming it from the URL's host and port took half of this stage's time in a call.
    let lastHost = LockedValue<(url: URL, circuit: String)?>(nil)

    /// A breaker; share one instance between the pipelines that call the same backends. It is a
    /// reference: every copy of a ``ClientPipeline`` holding it shares its circuits.
    ///
    /// - Parameters:
    ///   - failureRatio: The share of failed attempts at which a circuit opens, from 0 to 1; 0.5 unless given.
    ///   - minimumThroughput: The fewest attempts in the window that can open a circuit by ratio; at least 1.
    ///   - samplingDuration: How far back attempts count; at least 1 ms.
    ///   - breakDuration: How long a circuit stays open when the answers did not say; not negative.
    ///   - maximumBreakDuration: The longest break, whatever `Retry-After` asks for; at least `breakDuration`.
    ///   - probes: How many calls a half-open circuit lets through at once; at least 1.
    ///   - scope: One circuit per host, or per operation.
    ///   - clock: Measures the window and the breaks; tests pass a `TestClock`.
    ///   - logger: Where state changes are logged; `nil` logs nothing.
    ///   - metricsFactory: Where state changes are counted; the bootstrapped `MetricsSystem` unless given.
    ///   - countsAsFailure: Whether an attempt's failure counts towards opening its circuit;
    ///     what ``RetryPolicy/default`` retries unless given.
    /// - Precondition: Every value within the range given above. A value outside it is a
    ///   programmer error that stops the program here, not a value quietly changed.
    public init(
        failureRatio: Double = 0.5,
        minimumThroughput: Int = 10,
        samplingDuration: Duration = .seconds(30),
        breakDuration: Duration = .seconds(15),
        maximumBreakDuration: Duration = .seconds(300),
        probes: Int = 1,
        scope: Scope = .host,
        clock: some Clock<Duration> = ContinuousClock(),
        logger: Logger? = Logger(label: "backstop.circuit"),
        metricsFactory: any MetricsFactory = MetricsSystem.factory,
        countsAsFailure: @escaping @Sendable (RetryPolicy.Failure) -> Bool = CircuitBreaker.isBackendFailure
    ) {
        self.countsAsFailure = countsAsFailure
        precondition((0...1).contains(failureRatio), "CircuitBreaker: failureRatio must be from 0 to 1, not \(failureRatio)")
        precondition(minimumThroughput >= 1, "CircuitBreaker: minimumThroughput must be at least 1, not \(minimumThroughput)")
        precondition(
            samplingDuration >= .milliseconds(1), "CircuitBreaker: samplingDuration must be at least 1 ms, not \(samplingDuration)")
        precondition(breakDuration >= .zero, "CircuitBreaker: breakDuration must not be negative, not \(breakDuration)")
        precondition(
            maximumBreakDuration >= breakDuration,
            "CircuitBreaker: maximumBreakDuration (\(maximumBreakDuration)) must be at least breakDuration (\(breakDuration))")
        precondition(probes >= 1, "CircuitBreaker: probes must be at least 1, not \(probes)")
        self.failureRatio = failureRatio
        self.minimumThroughput = minimumThroughput
        self.samplingDuration = samplingDuration
        self.breakDuration = breakDuration
        self.maximumBreakDuration = maximumBreakDuration
        self.probes = probes
        self.scope = scope
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        self.logger = logger
        self.factory = metricsFactory
    }

    /// The state of `circuit` (`host:port`, or an operation name) now: an open circuit whose
    /// break is over reads as half-open.
    public func state(of circuit: String) -> State {
        let now = elapsed()
        return circuits.withLock { circuits in
            guard let entry = circuits[circuit] else { return .closed }
            if entry.state == .open && now >= entry.openUntil { return .halfOpen }
            return entry.state
        }
    }
}
