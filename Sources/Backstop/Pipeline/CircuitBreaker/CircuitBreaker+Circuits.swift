import Foundation
import Logging
import Metrics

extension CircuitBreaker {
    /// What an attempt's answer means to its circuit.
    enum Verdict: Equatable {
        case success
        case failure
        /// The answer said the backend is away for this long (or did not say how long).
        case away(Duration?)
        /// Says nothing of the backend: a cancelled call, a session that could not authenticate.
        case neutral
    }

    /// Leave to make one attempt through `circuit`; ``record(_:_:)`` gives it back.
    struct Permit {
        let circuit: String
        let isProbe: Bool
    }

    /// One circuit's state and the attempts of its window, in buckets a tenth of the window wide.
    struct Circuit {
        var state: State = .closed
        var openUntil: Duration = .zero
        var probesInFlight = 0
        var buckets = [Bucket](repeating: Bucket(), count: Circuit.bucketCount)

        static let bucketCount = 10

        struct Bucket {
            var index = -1
            var successes = 0
            var failures = 0
        }
    }

    /// The circuit an attempt goes through.
    func circuit(baseURL: URL, operationID: String) -> String {
        switch scope {
        case .host:
            if let last = lastHost.withLock({ $0 }), last.url == baseURL { return last.circuit }
            let circuit = (baseURL.host ?? "") + (baseURL.port.map { ":\($0)" } ?? "")
            lastHost.withLock { $0 = (baseURL, circuit) }
            return circuit
        case .operation:
            return operationID
        }
    }

    /// Leave to attempt, or the failure that ends the call at once because the circuit is open.
    func acquire(_ circuit: String) throws(ClientFailure) -> Permit {
        let now = elapsed()
        var transition: Transition?
        let result: Result<Permit, ClientFailure> = update(circuit) { entry in
            switch entry.state {
            case .closed:
                return .success(Permit(circuit: circuit, isProbe: false))
            case .open where now < entry.openUntil:
                return .failure(openFailure(circuit, remaining: entry.openUntil - now))
            case .open, .halfOpen:
                if entry.state == .open {
                    entry.state = .halfOpen
                    entry.probesInFlight = 0
                    transition = Transition(circuit: circuit, from: .open, to: .halfOpen)
                }
                guard entry.probesInFlight < probes else {
                    return .failure(openFailure(circuit, remaining: nil))
                }
                entry.probesInFlight += 1
                return .success(Permit(circuit: circuit, isProbe: true))
            }
        }
        if let transition { publish(transition) }
        return try result.get()
    }

    /// Runs `body` on `circuit`'s entry in place, under the lock.
    ///
    /// In place: a copy taken out and stored back shares its window's buckets with the
    /// dictionary's, so counting an attempt in the copy copied them, an allocation per call.
    private func update<Result>(_ circuit: String, _ body: (inout Circuit) -> Result) -> Result {
        circuits.withLock { circuits in body(&circuits[circuit, default: Circuit()]) }
    }

    /// Counts an attempt's verdict, and opens or closes its circuit when the verdict calls for it.
    func record(_ permit: Permit, _ verdict: Verdict) {
        let now = elapsed()
        let transition: Transition? = update(permit.circuit) { entry in
            let before = entry.state
            if permit.isProbe { entry.probesInFlight = max(entry.probesInFlight - 1, 0) }
            switch verdict {
            case .neutral:
                return nil
            case .away(let wait):
                // What the backend said, within the cap: the alert and the log line say the same.
                let length = min(max(wait ?? breakDuration, .zero), maximumBreakDuration)
                entry.open(until: now + length)
                return Transition(circuit: permit.circuit, from: before, to: .open, breakDuration: length)
            case .success:
                if entry.state == .halfOpen && permit.isProbe {
                    entry = Circuit()
                    return Transition(circuit: permit.circuit, from: .halfOpen, to: .closed)
                }
                entry.count(success: true, at: now, window: samplingDuration)
                return nil
            case .failure:
                if entry.state == .halfOpen && permit.isProbe {
                    entry.open(until: now + breakDuration)
                    return Transition(circuit: permit.circuit, from: .halfOpen, to: .open, breakDuration: breakDuration)
                }
                guard entry.state == .closed else { return nil }
                let (successes, failures) = entry.count(success: false, at: now, window: samplingDuration)
                let total = successes + failures
                guard total >= minimumThroughput, Double(failures) >= failureRatio * Double(total) else { return nil }
                entry.open(until: now + breakDuration)
                return Transition(circuit: permit.circuit, from: .closed, to: .open, breakDuration: breakDuration)
            }
        }
        if let transition, transition.from != transition.to || transition.to == .open { publish(transition) }
    }

    private func openFailure(_ circuit: String, remaining: Duration?) -> ClientFailure {
        let detail =
            remaining.map { "the circuit of \(circuit) is open for \($0.roundedText) more" }
            ?? "the circuit of \(circuit) is half-open and its probes are out"
        return ClientFailure(.circuitOpen, detail: detail, retryAfter: remaining)
    }

    private func publish(_ transition: Transition) {
        broadcast.publish(transition)
        Counter(
            label: "backstop_circuit_transitions_total",
            dimensions: [("scope", scope.rawValue), ("to", transition.to.rawValue)], factory: factory
        ).increment()
        guard let logger else { return }
        let line =
            "circuit \(transition.circuit): \(transition.from.rawValue) → \(transition.to.rawValue)"
            + (transition.breakDuration.map { " for \($0.roundedText)" } ?? "")
        let metadata: Logger.Metadata = [
            "circuit": "\(transition.circuit)", "from": "\(transition.from.rawValue)",
            "to": "\(transition.to.rawValue)",
        ]
        logger.log(level: transition.to == .closed ? .info : .warning, "\(line)", metadata: metadata)
    }
}

extension CircuitBreaker.Circuit {
    mutating func open(until deadline: Duration) {
        self = CircuitBreaker.Circuit()
        state = .open
        openUntil = deadline
    }

    /// Adds an attempt to the window and answers the window's totals.
    @discardableResult
    mutating func count(success: Bool, at now: Duration, window: Duration) -> (successes: Int, failures: Int) {
        let width = window / Self.bucketCount
        let index = Int(now / width)
        let slot = index % Self.bucketCount
        if buckets[slot].index != index { buckets[slot] = Bucket(index: index) }
        if success { buckets[slot].successes += 1 } else { buckets[slot].failures += 1 }
        var totals = (successes: 0, failures: 0)
        for bucket in buckets where bucket.index > index - Self.bucketCount {
            totals.successes += bucket.successes
            totals.failures += bucket.failures
        }
        return totals
    }
}
