extension APIError: CustomStringConvertible {
    /// One line for developers with the whole chain, layer → cause → underlying:
    /// `transport → timedOut → NSURLErrorDomain -1001: …`,
    /// `server → module StudyGroupCode.wrongTeamCode (11210005) → "Wrong team code"`.
    public var description: String {
        switch self {
        case .transport(let failure): "transport → \(failure)"
        case .http(let failure): "http → \(failure)"
        case .decoding(let failure): "decoding → \(failure)"
        case .server(let error): "server → \(Self.describe(error))"
        case .client(let failure): "client → \(failure)"
        }
    }

    /// A stable identifier for grouping occurrences in analytics, free of messages, bodies
    /// and other volatile text: `transport.timedOut`, `http.503`, `server.module.11210005`,
    /// `decoding.payload.wrongType.$.result.data.items[*].id`.
    public var groupingIdentifier: String {
        switch self {
        case .transport(let failure):
            "transport.\(failure.reason.rawValue)"
        case .http(let failure):
            "http.\(failure.status.code)" + (failure.code.map { ".\($0.stringValue)" } ?? "")
        case .decoding(let failure):
            // Array indices differ between occurrences of the same defect.
            "decoding.\(failure.part.rawValue).\(failure.problem.rawValue).\(JSONPath.indexFree(failure.path))"
        case .server(.general(let code, _)):
            "server.general.\(code.code.stringValue)"
        case .server(.module(let code, _)):
            "server.module.\(code.code.stringValue)"
        case .server(.unknown(let code, _)):
            "server.unknown.\(code.stringValue)"
        case .client(let failure):
            "client.\(failure.reason.name)"
        }
    }

    private static func describe(_ error: ServerError<General, Module>) -> String {
        var text: String
        switch error {
        case .general(let code, _): text = "general \(String(describing: General.self)).\(code) (\(code.code))"
        case .module(let code, _): text = "module \(String(describing: Module.self)).\(code) (\(code.code))"
        case .unknown(let code, _): text = "unknown code \(code)"
        }
        if let message = error.message { text += " → \"\(OneLine.text(message, limit: 160))\"" }
        return text
    }
}
