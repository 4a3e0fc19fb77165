package import Foundation
internal import OpenAPIRuntime

/// The document the types of this module are generated from, as the repair step reads it.
package enum PayloadsDocument {
    /// `openapi.yaml` beside this file.
    package static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("openapi.yaml")
    }

    /// A `JSONDecoder` as generated code decodes JSON bodies: swift-openapi-runtime's `Converter`
    /// makes one with its configuration's date transcoder (ISO 8601, RFC 3339, by default).
    package static func generatedCodeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        let transcoder = Configuration().dateTranscoder
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            return try transcoder.decode(try container.decode(String.self))
        }
        return decoder
    }
}
