import BackstopJSON

extension DecodingFailure {
    /// A failure of `body` (`nil` when empty) at `path`, with the body's excerpt; for
    /// contracts to throw.
    public init(_ part: Part, at path: EnvelopePath, _ problem: Problem, detail: String? = nil, in body: ParsedJSON?) {
        self.init(part, at: path.jsonPath, problem, detail: detail, excerpt: body.map(Self.excerpt(of:)) ?? "")
    }

    /// The failure of decoding a payload, at the path inside it where decoding stopped.
    init(decoding error: any Error, payloadAt payload: EnvelopePath, excerpt: String) {
        guard let error = error as? DecodingError else {
            // A custom `init(from:)` threw its own error.
            self.init(.payload, at: payload.jsonPath, .invalidValue, detail: String(describing: error), excerpt: excerpt)
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(
                .payload, at: JSONPath.string(context.codingPath + [key]), .missing,
                detail: context.debugDescription, excerpt: excerpt)
        case .valueNotFound(let type, let context):
            self.init(
                .payload, at: JSONPath.string(context.codingPath), .null,
                detail: "expected \(type): \(context.debugDescription)", excerpt: excerpt)
        case .typeMismatch(_, let context):
            self.init(
                .payload, at: JSONPath.string(context.codingPath), .wrongType,
                detail: context.debugDescription, excerpt: excerpt)
        case .dataCorrupted(let context):
            self.init(
                .payload, at: JSONPath.string(context.codingPath), .invalidValue,
                detail: context.debugDescription, excerpt: excerpt)
        @unknown default:
            self.init(.payload, at: payload.jsonPath, .invalidValue, detail: String(describing: error), excerpt: excerpt)
        }
    }

    /// The start of a parsed body, on one line.
    static func excerpt(of body: ParsedJSON) -> String {
        OneLine.text(body.excerpt(limit: 120), limit: 120)
    }
}
