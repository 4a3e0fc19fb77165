import Foundation
import OpenAPIRuntime

/// Reading bodies whole, within a limit, so an endless or huge body is an error and not
/// an out-of-memory crash.
package enum BodyCollection {
    /// Reads `body` whole; throws `.client` ``ClientFailure/Reason/responseTooLarge`` past
    /// `limit`, having read nothing past it.
    static func collect(_ body: HTTPBody?, upTo limit: Int) async throws -> Data {
        guard let body else { return Data() }
        if case .known(let length) = body.length {
            guard length <= limit else { throw tooLarge(limit) }
        }
        var data = Data()
        for try await chunk in body {
            guard chunk.count <= limit - data.count else { throw tooLarge(limit) }
            data.append(contentsOf: chunk)
        }
        return data
    }

    /// A body that can be sent again: `body` itself when it can be iterated many times,
    /// else its bytes, read once.
    static func replayable(_ body: HTTPBody?, upTo limit: Int) async throws -> HTTPBody? {
        guard let body, body.iterationBehavior == .single else { return body }
        let data = try await collect(body, upTo: limit)
        return HTTPBody(data)
    }

    /// Whether a response sends the body its `Content-Length` declares: the response to a
    /// `HEAD`, a 204 and a 304 declare a length they do not send, which no limit may refuse.
    package static func sendsDeclaredBody(toHEAD isHead: Bool, status: Int) -> Bool {
        !isHead && status != 204 && status != 304
    }

    /// The failure of a body larger than `limit`, for a transport that reads bodies itself.
    package static func tooLarge(_ limit: Int) -> ClientFailure {
        ClientFailure(.responseTooLarge, detail: "the body is larger than the limit of \(limit) bytes")
    }
}
