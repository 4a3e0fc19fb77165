import Foundation

/// The public data the tests read (nst/JSONTestSuite and the three benchmark files), which is
/// fetched from elsewhere and so never committed: it lives beside the repository.
///
/// The corpus directory, holding `JSONTestSuite/` and `benchmark/`, is `$BACKSTOP_CORPUS_DIR`
/// when that variable is set (and then only there: `BACKSTOP_CORPUS_DIR=/nonexistent` means no
/// corpus), else `../shared/corpus` beside the package's root. Unless it holds both folders, the
/// corpus is absent, as in a user's lone clone, and the tests that need it are skipped with
/// ``absence`` as their reason (`.ci/run` fails on that reason). The benchmarks and `Fuzz/run.sh`
/// look in the same two places.
package enum Corpus {
    /// The corpus directory, or `nil` when it is absent.
    package static let root: URL? = {
        let directory: URL
        if let explicit = ProcessInfo.processInfo.environment["BACKSTOP_CORPUS_DIR"], !explicit.isEmpty {
            directory = URL(fileURLWithPath: explicit, isDirectory: true)
        } else {
            // Tests/Corpus/Corpus.swift: three levels up is the package's root.
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { root.deleteLastPathComponent() }
            directory = root.deletingLastPathComponent().appendingPathComponent("shared/corpus", isDirectory: true)
        }
        let present = ["JSONTestSuite", "benchmark"].allSatisfy { folder in
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(folder).path
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        return present ? directory.standardizedFileURL : nil
    }()

    /// Why a test that needs the corpus was skipped; `.ci/run` looks for these words.
    package static let absence = "no corpus: neither $BACKSTOP_CORPUS_DIR nor ../shared/corpus holds JSONTestSuite/ and benchmark/"

    /// The files of a corpus folder (`JSONTestSuite/test_parsing`), sorted by name; empty when the
    /// corpus is absent.
    package static func files(_ folder: String, extension ext: String = "json") -> [URL] {
        guard let root else { return [] }
        let directory = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { directory.appendingPathComponent($0) }
    }
}
