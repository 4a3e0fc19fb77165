import OpenAPIRuntime

/// A response body's chunks, which end in an error, not silently, when the reader's task is
/// cancelled: a cancelled stream's iterator answers `nil`, which would read as the body's end.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let chunks: ResponseStreams.Chunks

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: ResponseStreams.Chunks.AsyncIterator

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard let chunk = try await chunks.next() else {
                try Task.checkCancellation()
                return nil
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks.makeAsyncIterator()) }
}
