import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One call as the stages of a ``CallRunner`` see it: the request, where it goes, what the
/// caller asked of the pipeline, what the call has learnt so far, and how to send it.
///
/// One value, handed down from stage to stage, so that a stage added between two others
/// changes no signature.
struct CallContext: Sendable {
    /// The app's middlewares and whatever sends a request after them: the transport in
    /// ``APIClient``, the rest of a generated client's chain in ``PipelineMiddleware``.
    typealias Send = @Sendable (HTTPRequest, HTTPBody?, URL, String) async throws -> (HTTPResponse, HTTPBody?)

    /// The request as the caller made it until coalescing; below, with the call's trace
    /// context, as it is sent. Authentication adds the credential to each attempt's copy.
    var request: HTTPRequest {
        _read { yield storage.request }
        _modify { yield &unique().request }
    }
    /// Replayable: every attempt sends it again.
    var body: HTTPBody? { storage.body }
    /// Where the request's path starts.
    var baseURL: URL { storage.baseURL }
    /// What the caller asked of the pipeline beyond its configuration.
    var options: CallOptions {
        _read { yield storage.options }
    }
    /// What the stages learn: attempts, retries, secrets, the span.
    var record: CallRecord { storage.record }
    /// Sends one attempt through the app's middlewares.
    var send: Send
    /// Whether ``send`` is borrowed for the duration of the call (a generated client's
    /// non-escaping `next`): then nothing may use it once the call has returned, so a hedged
    /// call waits for its losing requests to end before it returns.
    var sendIsBorrowed: Bool { storage.sendIsBorrowed }
    /// The coalesced flight this call sends for, if it sends one: authentication tells it whose
    /// credential each attempt carries, so a flight keyed for one sign-in never shares another's answer.
    var flight: RequestCoalescing.Sending? = nil
    /// The call's total timeout, when the stages below keep it instead of a task of its own
    /// (see ``CallRunner/timeout(_:)``).
    var deadline: CallDeadline? = nil

    /// What the stages above the attempts do not change, shared by copies until one changes the
    /// request: the stages hand a call down through closures and tasks, and a copy of every field
    /// (the request's strings, the retry rules' sets, the code reader) cost a call about 450
    /// instructions each time. What stages set for those below them (``flight``, ``deadline``,
    /// ``send``) stays beside it, so setting it copies no request.
    private var storage: Storage

    init(
        request: HTTPRequest, body: HTTPBody?, baseURL: URL, options: CallOptions, record: CallRecord, send: @escaping Send,
        sendIsBorrowed: Bool
    ) {
        storage = Storage(
            request: request, body: body, baseURL: baseURL, options: options, record: record, sendIsBorrowed: sendIsBorrowed)
        self.send = send
    }

    /// The storage, copied first if another context shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The request and what no stage changes, behind one reference.
    private final class Storage: @unchecked Sendable {
        // Unchecked: `request` changes only through a context that holds the only reference (`unique()`).
        var request: HTTPRequest
        let body: HTTPBody?
        let baseURL: URL
        let options: CallOptions
        let record: CallRecord
        let sendIsBorrowed: Bool

        init(request: HTTPRequest, body: HTTPBody?, baseURL: URL, options: CallOptions, record: CallRecord, sendIsBorrowed: Bool) {
            self.request = request
            self.body = body
            self.baseURL = baseURL
            self.options = options
            self.record = record
            self.sendIsBorrowed = sendIsBorrowed
        }

        func copy() -> Storage {
            Storage(request: request, body: body, baseURL: baseURL, options: options, record: record, sendIsBorrowed: sendIsBorrowed)
        }
    }
}

extension CallContext {
    /// This call with its span's trace context on the request, as it is sent: each call has its
    /// own, so coalescing keys the request without it.
    func tracedForSending() -> CallContext {
        guard let span = record.span else { return self }
        var call = self
        span.inject(into: &call.request.headerFields)
        return call
    }
}
