import Foundation

/// One operation of a document as it is served and rehearsed: where it is, what it checks and
/// the answer it gives clean.
package struct DocumentOperation: Sendable {
    /// One segment of the path template: `pets`, or the parameter `{petId}`.
    package enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// `GET`, `POST`…
    package var method: String
    /// The path template as written: `/pets/{petId}`.
    package var path: String
    /// The ID a generated client passes for it: the document's `operationId`, else what
    /// swift-openapi-generator makes of the method and path (`get/pets/{petId}`).
    package var operationID: String
    package var segments: [Segment]
    package var parameters: [DocumentParameter]
    /// Whether the operation needs credentials: its own `security`, else the document's, names a scheme.
    package var secured: Bool
    /// Every response the document gives it, the answer served first.
    package var responses: [DocumentResponse]
    /// The property of the answer that carries an app-wide code, when its schema has one
    /// (`code`, `statusCode`, `errorCode`, `resultCode`, of type integer), and the one that carries
    /// its message (`message`, `msg`, `errorMessage`).
    package var envelopeCode: String?
    package var envelopeMessage: String?
    /// The path parameters a generated answer carries back, where its schema has a property
    /// for each (``cleanBody(pathParameters:)``); none for an answer that is the document's example.
    package var echoedParameters: [EchoedParameter] = []

    /// The answer served when nothing misbehaves: the first success the document gives.
    package var answer: DocumentResponse? { responses.first }

    /// `GET /pets/{petId}`.
    package var title: String { "\(method) \(path)" }

    /// The path parameters of `segments` if they match the template, by name.
    package func match(_ requested: [Substring]) -> [String: String]? {
        guard requested.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, requested) {
            switch segment {
            case .literal(let text): guard text == part else { return nil }
            case .parameter(let name):
                guard !part.isEmpty else { return nil }
                values[name] = String(part).removingPercentEncoding ?? String(part)
            }
        }
        return values
    }

    /// How many literal segments the template has: the more, the better a match.
    var literalCount: Int { segments.count { if case .literal = $0 { true } else { false } } }
}
