import Backstop
import BackstopJSON
import Foundation

/// The repair walk: a body checked in one pass over its bytes (``StreamingCheck``); when that
/// pass is not sure, parsed once, checked against its compiled schema without allocating, and
/// rewritten once when it does not fit.
enum SchemaRepair {
    static func repair(_ body: Data, root: Int, in compiled: CompiledDocument, policy: DecodingPolicy) throws(DecodingFailure)
        -> RepairedBody
    {
        // Most bodies are clean: one pass over the bytes tells, without the tape. Only a body it
        // is not sure of pays for the parse and the walk below (an empty one is never clean).
        if compiled.streamingFits(body, root: root) { return RepairedBody(body: body) }
        guard !JSONScanner.isBlank(body) else {
            throw DecodingFailure(.body, at: "$", .emptyBody, detail: "expected \(compiled.schemas[root].name)", excerpt: "")
        }
        let outcome: Result<RepairedBody, DecodingFailure>
        do {
            outcome = try JSONInputEncoding.withDocument(from: body, policy: policy) { document in
                compiled.withCheck(of: document) { check in
                    if document.trailingCommas.isEmpty && check.fits(0, root) { return .success(RepairedBody(body: body)) }
                    var rewrite = SchemaRewrite(document: document, schemas: check.schemas, policy: policy, check: check)
                    if let invalid = rewrite.write(0, root) {
                        return .failure(
                            DecodingFailure(
                                .payload, at: invalid.path, invalid.problem, detail: invalid.detail, excerpt: OneLine.excerpt(of: body))
                        )
                    }
                    if rewrite.repairs.isEmpty { return .success(RepairedBody(body: body)) }
                    return .success(RepairedBody(body: Data(rewrite.out), repairs: rewrite.repairs))
                }
            }
        } catch {
            throw DecodingFailure(.body, at: "$", .notJSON, detail: "\(error)", excerpt: OneLine.excerpt(of: body))
        }
        return try outcome.get()
    }
}
