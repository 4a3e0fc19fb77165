import BadBackend
import Foundation

extension InputFile {
    /// The OpenAPI document at `path` (a command's `--openapi`), read and made ready to serve:
    /// what `serve --openapi` and `proxy --openapi` both load.
    ///
    /// - Parameters:
    ///   - limit: The most bytes read; `--max-bytes` raises it.
    ///   - seed: The seed of the values generated for its answers.
    ///   - scenario: The misbehaviour of every request that names none, for `serve`.
    /// - Throws: ``Unreadable``, one line naming the file and why: it cannot be read, or the
    ///   document cannot be used (where in it, as `OpenAPIContract` reads it).
    @available(macOS 14, iOS 17, tvOS 17, *)
    static func servedDocument(at path: String, limit: Int, seed: UInt64, scenario: String? = nil) throws(Unreadable)
        -> BadBackend.ServedDocument
    {
        let data = try contents(of: path, limit: limit, limitName: "--max-bytes")
        do {
            return try BadBackend.ServedDocument(
                data: data, source: URL(fileURLWithPath: path).lastPathComponent, seed: seed, scenario: scenario)
        } catch {
            // Its description escapes the document's text once.
            throw Unreadable(path: path, reason: error.description)
        }
    }
}
