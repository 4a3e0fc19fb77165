import Foundation

extension DocumentOperation {
    /// The body of the clean answer to a request with these path parameters: the answer as
    /// ``answer`` has it, a generated one with each of ``echoedParameters`` carrying the value
    /// requested where it fits the property's type. The same request, the same body.
    ///
    /// - Parameter pathParameters: The path parameters' values by name, from
    ///   ``DocumentRehearsal/match(method:path:)``.
    package func cleanBody(pathParameters: [String: String]) -> Data {
        guard let answer else { return Data() }
        guard !echoedParameters.isEmpty, case .object(var members)? = answer.sample else { return answer.body }
        var changed = false
        for echo in echoedParameters {
            guard let text = pathParameters[echo.parameter], let value = echo.value(text) else { continue }
            changed = Self.set(value, at: echo.path[...], in: &members) || changed
        }
        return changed ? SampleJSON.object(members).data : answer.body
    }

    /// Puts `value` at `path` in an object's members, when every member on the way is there.
    private static func set(_ value: SampleJSON, at path: ArraySlice<String>, in members: inout [(String, SampleJSON)]) -> Bool {
        guard let name = path.first, let position = members.firstIndex(where: { $0.0 == name }) else { return false }
        if path.count == 1 {
            members[position].1 = value
            return true
        }
        guard case .object(var inner) = members[position].1, set(value, at: path.dropFirst(), in: &inner) else { return false }
        members[position].1 = .object(inner)
        return true
    }
}
