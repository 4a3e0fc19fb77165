import Foundation

/// Finds and loads the benchmark corpus (twitter.json, citm_catalog.json, canada.json).
///
/// The corpus is public data fetched from elsewhere, so it is not in the repository: it lives
/// beside it, in `../shared/corpus/benchmark/`. The corpus directory (the one holding
/// `benchmark/`) is, in order:
/// 1. the `BACKSTOP_CORPUS_DIR` environment variable, if set: then only there;
/// 2. `../shared/corpus` beside the repository's root, found from this source file (`#filePath`).
///
/// The tests find it the same way (`Tests/Corpus/Corpus.swift`).
package enum Corpus {
    package static let files = ["twitter.json", "citm_catalog.json", "canada.json"]

    struct NotFound: Error, CustomStringConvertible {
        var searched: String
        var description: String {
            """
            Benchmark corpus not found: no \(Corpus.files.joined(separator: ", ")) in \(searched).
            Put the corpus in ../shared/corpus beside the repository, or set BACKSTOP_CORPUS_DIR \
            to the directory holding benchmark/.
            """
        }
    }

    package static func directory() throws -> URL {
        let corpus: URL
        if let explicit = ProcessInfo.processInfo.environment["BACKSTOP_CORPUS_DIR"], !explicit.isEmpty {
            corpus = URL(fileURLWithPath: explicit, isDirectory: true)
        } else {
            // Benchmarks/Benchmarks/Payloads/Corpus.swift: four levels up is the repository's root.
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<4 { root.deleteLastPathComponent() }
            corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus", isDirectory: true)
        }
        let directory = corpus.appendingPathComponent("benchmark", isDirectory: true).standardizedFileURL
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }) else {
            throw NotFound(searched: directory.path)
        }
        return directory
    }

    package static func load(_ file: String) throws -> Data {
        try Data(contentsOf: directory().appendingPathComponent(file))
    }
}
