import Backstop
import BackstopJSON
import Foundation

/// What an app would see of one response unwrapped with a contract, as `backstop check` prints it.
struct ResponseCheck {
    /// How the response came out.
    enum Outcome: Equatable {
        /// The contract found a payload, of this shape.
        case payload(shape: String)
        /// The envelope declined the request with a business code.
        case businessFailure(code: String, message: String?)
        /// The HTTP status is not one the contract reads envelopes from.
        case httpError(status: Int, code: String?, message: String?)
        /// The body breaks the contract.
        case contractBroken(String)
    }

    let outcome: Outcome
    /// Repairs made on the way, to the envelope or while parsing.
    let repairs: [Repair]

    init(body: Data, response: HTTPResponse, contract: EnvelopeContract) {
        let log = RepairLog()
        do {
            let report = try contract.unwrap(
                JSONValue.self, from: body, response: response,
                decoder: ResilientJSONDecoder(reporter: log), throwing: APIError<NoModuleCodes, NoModuleCodes>.self)
            outcome = .payload(shape: Self.shape(of: report.value))
            repairs = report.repairs
            return
        } catch .server(let error) {
            outcome = .businessFailure(code: error.code.description, message: error.message)
        } catch .http(let failure) {
            outcome = .httpError(status: failure.status.code, code: failure.code?.description, message: failure.message)
        } catch .decoding(let failure) {
            outcome = .contractBroken(failure.description)
        } catch {
            outcome = .contractBroken(error.description)
        }
        repairs = log.repairs
    }

    /// 0 when a payload came out, 1 when the app would get an error.
    var exitCode: Int32 {
        if case .payload = outcome { return 0 }
        return 1
    }

    /// The report, one fact a line. Every text the response brought (messages, member names;
    /// codes, descriptions and repairs escape their own) has its control and bidirectional
    /// characters escaped: `check` fetches any URL, and no server may write to the terminal.
    var lines: [String] {
        var lines: [String]
        switch outcome {
        case .payload(let shape):
            lines = ["payload: \(shape)"]
        case .businessFailure(let code, let message):
            lines = ["business failure: code \(code)" + (message.map { ", message \"\(UntrustedText.escaped($0))\"" } ?? ", no message")]
        case .httpError(let status, let code, let message):
            var line = "HTTP error: status \(status)"
            if let code { line += ", code \(code)" }
            if let message { line += ", message \"\(UntrustedText.escaped(message))\"" }
            lines = [line]
        case .contractBroken(let reason):
            lines = ["contract broken: \(reason)"]
        }
        lines += repairs.isEmpty ? ["repairs: none"] : ["repairs:"] + repairs.map { "  \($0)" }
        return lines
    }

    /// A payload's shape: member names and kinds, arrays by count and first element, three levels deep.
    static func shape(of value: JSONValue, depth: Int = 0) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "bool"
        case .integer, .double: return "number"
        case .string: return "string"
        case .array(let elements):
            guard let first = elements.first else { return "[]" }
            return "[\(elements.count) × \(depth < 3 ? shape(of: first, depth: depth + 1) : "…")]"
        case .object(let members):
            guard depth < 3 else { return "{…}" }
            let fields = members.keys.sorted().map { "\(UntrustedText.escaped($0)): \(shape(of: members[$0] ?? .null, depth: depth + 1))" }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }
}
