/// What one endpoint does with saved answers, instead of what its method decides: a GET saves
/// and may be answered from the store, any other method neither.
///
/// ```swift
/// let search = Endpoint<[StudyGroup], StudyGroupCode>(
///     .post, "groups/search", body: GroupSearch(text: "swift"), isIdempotent: true,
///     savedAnswers: .saved(maximumAge: .seconds(600)))
/// let balance = Endpoint<StudyGroup, StudyGroupCode>(.get, "groups/42/balance", savedAnswers: .never)
/// ```
public struct SavedAnswerRule: Hashable, Sendable {
    /// Whether the endpoint's successes are saved and its failures may be answered from them.
    public var isSaved: Bool
    /// How old a saved answer may be to stand in for a failure; `nil` takes
    /// ``SavedAnswers/maximumAge``.
    public var maximumAge: Duration?

    /// A rule; ``saved(maximumAge:)`` and ``never`` name the two kinds.
    public init(isSaved: Bool, maximumAge: Duration? = nil) {
        self.isSaved = isSaved
        self.maximumAge = maximumAge
    }

    /// Saved and answered, whatever the method (a POST that only reads, such as a search),
    /// within `maximumAge` or the pipeline's. A method that is not idempotent is still never
    /// answered from the store unless the endpoint says it is (``Endpoint/isIdempotent``).
    public static func saved(maximumAge: Duration? = nil) -> SavedAnswerRule {
        SavedAnswerRule(isSaved: true, maximumAge: maximumAge)
    }

    /// Never saved, never answered from the store: data that must be fresh or not shown.
    public static var never: SavedAnswerRule { SavedAnswerRule(isSaved: false) }
}
