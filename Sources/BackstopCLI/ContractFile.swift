import Backstop
import BackstopJSON
import Foundation

/// A contract file: JSON that describes an ``EnvelopeContract`` for `backstop check`.
///
/// ```json
/// {
///   "code": "statusCode",
///   "message": ["message", "result.message"],
///   "payload": "result.data",
///   "success": {"codes": [200]},
///   "acceptedStatuses": [200, 299]
/// }
/// ```
///
/// - `code`: where the business code is, member names joined by dots. Needed unless
///   `success` is `"httpStatus"`.
/// - `message`: where the message may be, a path or a list tried in order. Optional.
/// - `payload`: where the payload is on success; `""` or left out for the whole body.
/// - `success`: `{"codes": [200, "OK"]}` (numbers or strings), `{"flag": "path.to.bool"}`,
///   or `"httpStatus"` for a backend without envelopes.
/// - `acceptedStatuses`: the first and last HTTP status whose bodies are envelopes,
///   inclusive; `[200, 299]` when left out.
///
/// Any other member is an error, so a misspelt name is caught rather than ignored.
struct ContractFile {
    /// What is wrong with a contract file, in one line.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static let help = """
        CONTRACT FILES
        A contract file is JSON describing the envelope, for example:
          {
            "code": "statusCode",
            "message": ["message", "result.message"],
            "payload": "result.data",
            "success": {"codes": [200]},
            "acceptedStatuses": [200, 299]
          }
        code      where the business code is, member names joined by dots;
                  not needed when success is "httpStatus".
        message   a path, or a list of paths tried in order, to the message.
        payload   where the payload is on success; "" or left out: the body.
        success   {"codes": [200, "OK"]}, {"flag": "path.to.bool"},
                  or "httpStatus" for a backend without envelopes.
        acceptedStatuses
                  first and last HTTP status whose bodies are envelopes;
                  [200, 299] when left out.
        Any other member is an error, so a misspelt name is caught.
        """

    private static let members: Set = ["code", "message", "payload", "success", "acceptedStatuses"]

    /// The contract `data` describes.
    static func contract(from data: Data) throws(Invalid) -> EnvelopeContract {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: data), case .object(let object) = json else {
            throw Invalid(description: "a contract file is a JSON object; see `backstop check --help`")
        }
        if let stranger = object.keys.sorted().first(where: { !members.contains($0) }) {
            throw Invalid(
                description: "unknown member \(InputFile.quoted(stranger)); members are \(members.sorted().joined(separator: ", "))")
        }
        let success = try success(object["success"])
        let code = try path(object["code"], "code")
        if code == nil, success != .httpStatus {
            throw Invalid(description: "'code' is needed unless success is \"httpStatus\"")
        }
        return EnvelopeContract(
            code: code, message: try messages(object["message"]),
            payload: try path(object["payload"], "payload") ?? .root,
            success: success, acceptedStatuses: try statuses(object["acceptedStatuses"]))
    }

    private static func path(_ value: JSONValue?, _ name: String) throws(Invalid) -> EnvelopePath? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return EnvelopePath(stringLiteral: text)
        default: throw Invalid(description: "'\(name)' is a path written as a string, such as \"result.data\"")
        }
    }

    private static func messages(_ value: JSONValue?) throws(Invalid) -> [EnvelopePath] {
        if case .array(let elements)? = value {
            var paths: [EnvelopePath] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw Invalid(description: "'message' is a path or a list of paths, written as strings")
                }
                paths.append(EnvelopePath(stringLiteral: text))
            }
            return paths
        }
        return try path(value, "message").map { [$0] } ?? []
    }

    private static func success(_ value: JSONValue?) throws(Invalid) -> EnvelopeContract.Success {
        switch value {
        case .string("httpStatus")?:
            return .httpStatus
        case .object(let object)? where object.count == 1:
            if case .string(let flag)? = object["flag"] { return .flag(EnvelopePath(stringLiteral: flag)) }
            if case .array(let list)? = object["codes"], !list.isEmpty {
                var codes: Set<RawServerCode> = []
                for element in list {
                    switch element {
                    case .integer(let number): codes.insert(RawServerCode(Int(number)))
                    case .string(let text): codes.insert(RawServerCode(text))
                    default: throw Invalid(description: "success codes are numbers or strings")
                    }
                }
                return .codes(codes)
            }
        default:
            break
        }
        throw Invalid(description: #"'success' is {"codes": [200]}, {"flag": "path"} or "httpStatus""#)
    }

    private static func statuses(_ value: JSONValue?) throws(Invalid) -> Range<Int> {
        switch value {
        case nil: return 200..<300
        case .array(let pair)? where pair.count == 2:
            if case .integer(let first) = pair[0], case .integer(let last) = pair[1], 100...599 ~= first, first...599 ~= last {
                return Int(first)..<Int(last) + 1
            }
        default: break
        }
        throw Invalid(description: "'acceptedStatuses' is [first, last], two HTTP statuses, such as [200, 299]")
    }
}
