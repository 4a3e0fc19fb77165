import Foundation

/// A path parameter a generated answer carries back, as a real server's answer does: the
/// `{petId}` of `GET /pets/{petId}` in the answer's `id`.
package struct EchoedParameter: Sendable {
    /// The type of the property that carries it: a value of another type is never put there.
    package enum Kind: Sendable, Equatable {
        case integer
        case number
        /// A string, one of `allowed` when the property lists its values.
        case string(allowed: [String])
        /// A string in the format `uuid`.
        case uuid
    }

    /// The path parameter's name, as the path template writes it.
    package let parameter: String
    /// The property that carries it: a member of the answer, or of one of the answer's object members.
    package let path: [String]
    package let kind: Kind

    /// `text`, the parameter's value as requested, as the property's JSON value; `nil` when it
    /// does not fit the property's type.
    package func value(_ text: String) -> SampleJSON? {
        switch kind {
        case .integer:
            return Int64(text).map { .number(String($0)) }
        case .number:
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(SampleJSON.text(of: number))
        case .string(let allowed):
            return allowed.isEmpty || allowed.contains(text) ? .string(text) : nil
        case .uuid:
            return UUID(uuidString: text) == nil ? nil : .string(text)
        }
    }

    /// The property names that may carry `parameter`: its own name, and `id` for the last
    /// parameter of the path when its name ends in `Id` or `_id` (`{petId}`, `{pet_id}`), the
    /// resource the path names.
    static func candidates(for parameter: String, isLast: Bool) -> [String] {
        let lowered = parameter.lowercased()
        guard isLast, lowered != "id", lowered.hasSuffix("id") else { return [parameter] }
        return [parameter, "id"]
    }
}
