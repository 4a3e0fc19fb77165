/// Reads a proxy scenario's `key=value` parameters, each within its bounds, and refuses any
/// it does not know.
struct ParameterReader {
    let scenario: String
    var parameters: [String: String]

    mutating func integer(_ key: String, default value: Int, in range: ClosedRange<Int>) throws(ProxyScenario.Invalid) -> Int {
        try optionalInteger(key, in: range) ?? value
    }

    mutating func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(ProxyScenario.Invalid) -> Int? {
        guard let text = parameters.removeValue(forKey: key) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ProxyScenario.Invalid(
                description:
                    "\(key)=\(text) in scenario '\(scenario)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    mutating func milliseconds(_ key: String, default value: Int) throws(ProxyScenario.Invalid) -> Duration {
        .milliseconds(try integer(key, default: value, in: 0...ProxyScenario.maximumMilliseconds))
    }

    mutating func ratio(_ key: String, default value: Double) throws(ProxyScenario.Invalid) -> Double {
        guard let text = parameters.removeValue(forKey: key) else { return value }
        guard let ratio = Double(text), (0...1).contains(ratio) else {
            throw ProxyScenario.Invalid(description: "\(key)=\(text) in scenario '\(scenario)' is not a number from 0 to 1")
        }
        return ratio
    }

    /// Refuses the parameters nobody read: a typo is an error, not a default quietly used.
    func finish() throws(ProxyScenario.Invalid) {
        guard let unknown = parameters.keys.sorted().first else { return }
        throw ProxyScenario.Invalid(description: "scenario '\(scenario)' takes no parameter '\(unknown)'")
    }
}
