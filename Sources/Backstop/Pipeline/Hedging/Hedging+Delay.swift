extension Hedging {
    /// When a hedge is sent.
    public enum Delay: Sendable, Hashable {
        /// After a fixed time without an answer.
        case fixed(Duration)
        /// After the given percentile of the time the operation's recent attempts took to their
        /// first answer, at least `minimum`; `fallback` until the operation has
        /// ``minimumSamples`` answers. Each operation keeps its last ``windowSize`` latencies.
        case percentile(Double, minimum: Duration, fallback: Duration)

        /// The answers an operation needs before its percentile is used: 20.
        public static var minimumSamples: Int { 20 }
        /// How many recent latencies each operation keeps: 100.
        public static var windowSize: Int { 100 }
        /// How many operations keep latencies: 256; later ones hedge after the fallback.
        public static var maximumOperations: Int { 256 }
    }
}
