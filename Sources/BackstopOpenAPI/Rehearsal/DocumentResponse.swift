import Foundation

/// One response of an operation, with the body served for it, rendered once.
package struct DocumentResponse: Sendable {
    /// Its status; a range (`2XX`) reads as its first status and `default` as 200.
    package let status: Int
    /// The body's content type, `nil` when it has no body.
    package let contentType: String?
    /// The body: the document's example when it has one, else a value generated from the schema.
    package let sample: SampleJSON?
    /// A body that is not JSON, as the document's example gives it.
    package let text: String?
    /// Whether ``sample`` is the document's own example.
    package let fromExample: Bool
    /// The body's bytes: every request is answered with them, so they are rendered once.
    package let body: Data
    /// Whether the body is JSON.
    package let isJSON: Bool

    package init(status: Int, contentType: String?, sample: SampleJSON?, text: String?, fromExample: Bool) {
        self.status = status
        self.contentType = contentType
        self.sample = sample
        self.text = text
        self.fromExample = fromExample
        body = sample?.data ?? Data((text ?? "").utf8)
        isJSON = contentType.map(CompiledDocument.isJSON) ?? false
    }
}
