/// One way BadBackend misbehaves on purpose, chosen by path: `/scenarios/<name>/<style>/<resource>`.
///
/// Every scenario applies to every resource, in every ``EnvelopeStyle``; the catalogue is
/// ``all``, and `GET /scenarios` serves it as JSON. See <doc:ScenarioPaths> for each path,
/// and the query items that tune a scenario (`failures`, `status`, `retryAfter`).
public enum Scenario: Sendable, Hashable {
    /// The payload, with this dirt, in a success envelope.
    case dirty(Dirt)
    /// A general business code in a failure envelope (200 unless `?status=` says otherwise).
    case general(BadBackend.GeneralCode)
    /// A study-group business code in a failure envelope (200 unless `?status=` says otherwise).
    case studyGroup(BadBackend.StudyGroupCode)
    /// A business code no client declares, ``unknownCode``, in a failure envelope.
    case unknownCode
    /// ``unknownBusinessCode`` in a failure envelope whose message is ``hostileText``: valid
    /// JSON that would clear a terminal, retitle its window, forge a log line and reverse a file
    /// name if a client wrote it out as received. `?message=` sends another message, `?repeat=`
    /// repeats it (up to ``maximumMessageBytes``).
    case hostileMessage
    /// This HTTP error status, with a failure envelope whose code is the status times 100;
    /// 429 carries `Retry-After`.
    case httpStatus(Int)
    /// A 502 whose body is a proxy's HTML page.
    case htmlErrorPage
    /// A 200 with `Content-Length: 0`.
    case emptyBody
    /// A 200 whose JSON stops halfway; the HTTP message itself is complete.
    case truncatedBody
    /// A 200 with the right envelope labelled `text/html`.
    case wrongContentType
    /// The right answer, after the configured delay on the server's clock; with `?failures=1`,
    /// only the path's first answer is slow, as a hedged request needs.
    case slow
    /// An outage of ``outageSeconds`` (or `?seconds=`) on the server's clock from the path's
    /// first request: until then HTTP 503 with `Retry-After` saying how long is left, then the
    /// right answer.
    case outage
    /// Headers promise the whole body; half of it is sent and the connection is closed.
    case connectionClosedMidBody
    /// A server with room for ``burstCapacity`` (or `?capacity=`) requests at once across its
    /// `burst` paths, as an overloaded server or its proxy: each is answered after the configured
    /// delay on the server's clock, and a request beyond the room gets HTTP 503 with
    /// `Retry-After: 1` at once.
    case burst

    /// The business code of ``unknownCode``.
    public static let unknownBusinessCode = 77_777
    /// The message of ``hostileMessage``: ESC sequences that clear the screen and set the window
    /// title, a BEL, a right-to-left override before a file name, and a line feed with a forged
    /// log line after it.
    public static let hostileText = "\u{1B}[2J\u{1B}]0;pwned\u{07} ok\u{202E}gnp.exe\nfake: line"
    /// The longest message ``hostileMessage`` sends, however many times `?repeat=` asks for.
    public static let maximumMessageBytes = 2 << 20
    /// How long an ``outage`` lasts unless `?seconds=` says otherwise.
    public static let outageSeconds = 30
    /// How many ``burst`` requests are served at once unless `?capacity=` says otherwise.
    public static let burstCapacity = 4
    /// The HTTP statuses ``httpStatus(_:)`` serves.
    public static let httpStatuses = [400, 401, 403, 404, 408, 409, 429, 500, 501, 502, 503, 504]

    /// The message of ``httpStatus(_:)``'s envelope: the status's reason phrase.
    static func reasonPhrase(of status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(status)"
        }
    }

    /// Every scenario, in the order `GET /scenarios` lists them.
    public static let all: [Scenario] =
        Dirt.allCases.map(Scenario.dirty)
        + BadBackend.GeneralCode.allCases.map(Scenario.general)
        + BadBackend.StudyGroupCode.allCases.map(Scenario.studyGroup)
        + [.unknownCode, .hostileMessage]
        + httpStatuses.map(Scenario.httpStatus)
        + [.htmlErrorPage, .emptyBody, .truncatedBody, .wrongContentType, .slow, .connectionClosedMidBody, .outage, .burst]

    /// The faults random injection picks from: every HTTP status and broken response but ``slow``
    /// and ``burst``, which would hold a test on a clock nobody advances, and ``outage``, which
    /// depends on time.
    public static let randomFaults: [Scenario] = all.filter {
        switch $0.group {
        case .httpStatus: $0 != .outage && $0 != .burst
        case .brokenResponse: $0 != .slow
        default: false
        }
    }

    /// The scenario with this path name.
    public init?(name: String) {
        guard let match = Self.all.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// What kind of misbehaviour a scenario is.
    public enum Group: String, Sendable, CaseIterable {
        /// A success envelope around a dirty payload.
        case dirtyData = "dirty-data"
        /// A ``BadBackend/GeneralCode`` in a failure envelope.
        case generalCode = "general-code"
        /// A ``BadBackend/StudyGroupCode`` in a failure envelope.
        case moduleCode = "module-code"
        /// A code no client declares in a failure envelope, with an ordinary or a hostile message.
        case unknownCode = "unknown-code"
        /// An HTTP error status.
        case httpStatus = "http-status"
        /// A response broken below the envelope: its body, its labelling, its timing or its connection.
        case brokenResponse = "broken-response"
    }

    /// The scenario's path segment: `numbers-as-strings`, `token-expired`, `http-503`.
    public var name: String {
        switch self {
        case .dirty(let dirt): dirt.rawValue
        case .general(let code): code.scenario.name
        case .studyGroup(let code): code.scenario.name
        case .unknownCode: "unknown-code"
        case .hostileMessage: "hostile-message"
        case .httpStatus(let status): "http-\(status)"
        case .htmlErrorPage: "html-error-page"
        case .emptyBody: "empty-body"
        case .truncatedBody: "truncated-body"
        case .wrongContentType: "wrong-content-type"
        case .slow: "slow"
        case .connectionClosedMidBody: "connection-closed-mid-body"
        case .outage: "outage"
        case .burst: "burst"
        }
    }

    /// The kind of misbehaviour, as `GET /scenarios` groups it.
    public var group: Group {
        switch self {
        case .dirty: .dirtyData
        case .general: .generalCode
        case .studyGroup: .moduleCode
        case .unknownCode, .hostileMessage: .unknownCode
        case .httpStatus, .outage, .burst: .httpStatus
        case .htmlErrorPage, .emptyBody, .truncatedBody, .wrongContentType, .slow, .connectionClosedMidBody: .brokenResponse
        }
    }

    /// The business code a failure envelope carries, for the business-code scenarios.
    public var businessCode: Int? {
        switch self {
        case .general(let code): code.rawValue
        case .studyGroup(let code): code.rawValue
        case .unknownCode, .hostileMessage: Self.unknownBusinessCode
        default: nil
        }
    }

    /// One line on what the server does, as `GET /scenarios` shows it.
    public var summary: String {
        switch self {
        case .dirty(.numbersAsStrings): "numbers and flags sent as strings"
        case .dirty(.nullsAndMissingFields): "a field null, another missing"
        case .dirty(.unknownEnumValues): "an enum value no client knows"
        case .dirty(.brokenArrayElement): "one array element that cannot be decoded"
        case .general(let code): "general code \(code.rawValue) (\(code.scenario.message)) in a failure envelope"
        case .studyGroup(let code): "study-group code \(code.rawValue) (\(code.scenario.message)) in a failure envelope"
        case .unknownCode: "code \(Self.unknownBusinessCode), which no client declares, in a failure envelope"
        case .hostileMessage:
            "code \(Self.unknownBusinessCode) whose message holds terminal escapes, a bell, a right-to-left override and a line break"
        case .httpStatus(429): "HTTP 429 with Retry-After and a failure envelope"
        case .httpStatus(let status): "HTTP \(status) with a failure envelope"
        case .htmlErrorPage: "HTTP 502 with a proxy's HTML page"
        case .emptyBody: "HTTP 200 with an empty body"
        case .truncatedBody: "HTTP 200 with JSON cut off halfway"
        case .wrongContentType: "HTTP 200, the right envelope labelled text/html"
        case .slow: "the right answer after the configured delay (only the first with ?failures=1)"
        case .connectionClosedMidBody: "the connection closed halfway through the promised body"
        case .outage: "HTTP 503 with Retry-After for \(Self.outageSeconds) s (or ?seconds=) after the path's first request, then the answer"
        case .burst:
            "room for \(Self.burstCapacity) requests at once (or ?capacity=), each answered after the configured delay; HTTP 503 with Retry-After beyond it"
        }
    }

    /// The message a business-code scenario's envelope carries.
    var message: String {
        switch self {
        case .general(let code): code.scenario.message
        case .studyGroup(let code): code.scenario.message
        case .unknownCode: "Something new went wrong"
        case .hostileMessage: Self.hostileText
        default: summary
        }
    }
}
