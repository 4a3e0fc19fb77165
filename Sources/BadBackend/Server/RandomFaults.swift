/// Faults injected at random into requests that name no scenario, replayable from a seed.
///
/// Whether a request gets a fault, and which, depends only on the seed, its method and path
/// and its attempt number, never on arrival order: the same requests get the same faults
/// however they interleave, so a failing run replays exactly with the same seed. Faults are
/// drawn from ``Scenario/randomFaults``; sign-in, refresh and `/scenarios` are never faulted.
public struct RandomFaults: Sendable, Hashable {
    /// The share of requests that get a fault, from 0 (none) to 1 (all).
    public var rate: Double
    /// The seed: the same seed gives the same faults to the same requests.
    public var seed: UInt64

    /// - Parameters:
    ///   - rate: Clamped to 0...1.
    ///   - seed: Any value; print it with a failing run to replay it.
    public init(rate: Double, seed: UInt64) {
        self.rate = min(max(rate, 0), 1)
        self.seed = seed
    }

    /// The fault for this request, or `nil` for a clean answer.
    public func fault(method: String, path: String, attempt: Int) -> Scenario? {
        pick(among: Scenario.randomFaults, method: method, path: path, attempt: attempt)
    }

    /// One of `faults` for this request, or `nil` for a clean answer: drawn as ``fault(method:path:attempt:)``
    /// draws, so a proxy's faults replay from a seed as the server's do.
    func pick<Fault>(among faults: [Fault], method: String, path: String, attempt: Int) -> Fault? {
        var state = state(method: method, path: path, attempt: attempt)
        let draw = Double(Self.splitMix(&state) >> 11) / Double(1 << 53)
        guard draw < rate, !faults.isEmpty else { return nil }
        let pick = Int(Self.splitMix(&state) % UInt64(faults.count))
        return faults[pick]
    }

    /// A number in 0..<1 for this request, the same for the same seed, method, path and attempt.
    func unit(method: String, path: String, attempt: Int) -> Double {
        var state = state(method: method, path: path, attempt: attempt)
        return Double(Self.splitMix(&state) >> 11) / Double(1 << 53)
    }

    private func state(method: String, path: String, attempt: Int) -> UInt64 {
        seed ^ Self.fnv1a(method + " " + path) ^ (UInt64(truncatingIfNeeded: attempt) &* 0x9E37_79B9_7F4A_7C15)
    }

    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
