import Foundation

/// Where the saved-answer stage (``SavedAnswers``) keeps the last good answer of each call:
/// ``InMemorySavedAnswerStore`` by default, or a store on disk.
///
/// What every store promises, and its tests check:
/// - **Saving never fails and never waits.** ``save(_:evicted:)`` returns at once: a store that
///   writes elsewhere (a file, a database) hands the answer over and writes it off the caller's
///   path; a failed write (a full disk, a corrupt file) is logged by the store and dropped,
///   never thrown. An answer over ``SavedAnswerLimits/maximumEntryBytes`` is not kept.
/// - **Bounded.** It holds to its ``SavedAnswerLimits``: total bytes, bytes per answer, answers,
///   age; the least recently used (saved or looked up) go first. Each answer it removes to make
///   room, or because it was too old, is counted in `evicted`.
/// - **Flat.** Looking up, saving and evicting cost the same with 100,000 answers as with 1,000.
/// - **Per user.** An answer is found only under its whole key, ``SavedAnswerKey/user``
///   included.
/// - **Removals hold at once.** ``remove(_:)``, ``removeAnswers(of:)`` and ``removeAll()``
///   return at once, like saving, and a lookup that starts after one returned never finds what
///   it removed, though a store on disk may delete the rows later.
/// - **No secret.** Keys and answers hold none (see ``SavedAnswerKey``); a store writes
///   nothing else of the call.
/// - **Concurrent.** Any of its methods may be called from any task at once.
///
/// A class: every pipeline and client given the same store shares its answers, and an
/// ``AuthSession`` removes its user's answers from each store its calls saved to.
public protocol SavedAnswerStore: AnyObject, Sendable {
    /// The answer saved under `key`, if there is one within the store's limits (not past
    /// ``SavedAnswerLimits/maximumAge``); it becomes the most recently used.
    func answer(for key: SavedAnswerKey) async -> SavedAnswer?

    /// Keeps `answer` under its key, replacing the one there; returns at once.
    ///
    /// `evicted` is called once, possibly later and on another thread, with how many other
    /// answers were removed to make room or for their age (0 when none were); not when the
    /// save itself failed or was refused.
    func save(_ answer: SavedAnswer, evicted: @escaping @Sendable (Int) -> Void)

    /// Removes the answer saved under `key`, if any.
    func remove(_ key: SavedAnswerKey)

    /// Removes every answer of `user` (``SavedAnswerKey/user``): the session signed out, or
    /// another user signed in.
    func removeAnswers(of user: String)

    /// Removes every answer.
    func removeAll()

    /// Whether an answer it holds may carry a validator (`ETag`, `Last-Modified`): while it is
    /// `false`, the stage skips the lookup it makes before each call to send
    /// `If-None-Match` or `If-Modified-Since`, the one cost a call pays when no answer can be
    /// revalidated. `true` unless a store says otherwise; a store that answers `false` when it
    /// holds such an answer only loses that answer's revalidation, never a saved answer.
    var mayHoldRevalidatableAnswers: Bool { get }
}

extension SavedAnswerStore {
    /// `true`: a store that does not count its validators is looked up before every call.
    public var mayHoldRevalidatableAnswers: Bool { true }
}
