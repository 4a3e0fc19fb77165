extension ClientFailure.Reason {
    /// The pipeline's ``ConcurrencyLimit`` had no room for the call, in flight or waiting.
    public static let tooManyCalls = Self("tooManyCalls", code: 10)
}
