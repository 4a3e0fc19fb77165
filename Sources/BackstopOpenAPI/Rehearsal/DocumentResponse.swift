import Foundation

/// One response of an operation, with the body served for it.
package struct DocumentResponse: Sendable {
    /// Its status; `default` and ranges read as 500 and as the range's first status.
    package var status: Int
    /// The body's content type, `nil` when it has no body.
    package var contentType: String?
    /// The body: the document's example when it has one, else a value generated from the schema.
    package var sample: SampleJSON?
    /// A body that is not JSON, as the document's example gives it.
    package var text: String?
    /// Whether ``sample`` is the document's own example.
    package var fromExample: Bool

    /// The body's bytes.
    package var body: Data {
        if let sample { return sample.data }
        return Data((text ?? "").utf8)
    }

    /// Whether the body is JSON.
    package var isJSON: Bool { contentType.map(CompiledDocument.isJSON) ?? false }
}
