import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only where the corpus is (``Corpus/root``); elsewhere it is skipped,
    /// and the test run says so, with ``Corpus/absence`` as the reason.
    package static var needsCorpus: Self {
        .enabled(if: Corpus.root != nil, Comment(rawValue: Corpus.absence))
    }
}
