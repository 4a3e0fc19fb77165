import Foundation

/// Finds and loads the benchmark corpus (twitter.json, citm_catalog.json, canada.json).
///
/// The corpus is kept in the repository, in `Corpus/benchmark/`. It is located by, in order:
/// 1. the `BACKSTOP_CORPUS_DIR` environment variable, if set;
/// 2. walking up from this source file (`#filePath`) looking for `Corpus/benchmark`;
/// 3. walking up from the current directory the same way.
package enum Corpus {
    package static let relativeDirectory = "Corpus/benchmark"
    package static let files = ["twitter.json", "citm_catalog.json", "canada.json"]

    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            """
            Benchmark corpus not found: no directory '\(Corpus.relativeDirectory)' containing \
            \(Corpus.files.joined(separator: ", ")) above any of:
              \(searched.joined(separator: "\n  "))
            Restore <repo>/\(Corpus.relativeDirectory) or set BACKSTOP_CORPUS_DIR.
            """
        }
    }

    package static func directory() throws -> URL {
        let fileManager = FileManager.default
        func isCorpus(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
                && files.allSatisfy { fileManager.fileExists(atPath: url.appendingPathComponent($0).path) }
        }
        if let explicit = ProcessInfo.processInfo.environment["BACKSTOP_CORPUS_DIR"], !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit, isDirectory: true)
            guard isCorpus(url) else { throw NotFound(searched: ["BACKSTOP_CORPUS_DIR=\(explicit)"]) }
            return url
        }
        let starts = [
            URL(fileURLWithPath: #filePath).deletingLastPathComponent(),
            URL(fileURLWithPath: fileManager.currentDirectoryPath, isDirectory: true),
        ]
        for start in starts {
            var dir = start.standardizedFileURL
            while true {
                let candidate = dir.appendingPathComponent(relativeDirectory, isDirectory: true)
                if isCorpus(candidate) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        var searched: [String] = []
        for start in starts where !searched.contains(start.path) { searched.append(start.path) }
        throw NotFound(searched: searched)
    }

    package static func load(_ file: String) throws -> Data {
        try Data(contentsOf: directory().appendingPathComponent(file))
    }
}
