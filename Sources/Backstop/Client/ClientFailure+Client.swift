extension ClientFailure.Reason {
    /// The endpoint's base URL, path and query do not make a URL.
    public static let invalidURL = Self("invalidURL", code: 3)
    /// The endpoint's body could not be encoded.
    public static let unencodableBody = Self("unencodableBody", code: 4)
    /// The response body was larger than the client's limit, so it was not read.
    public static let responseTooLarge = Self("responseTooLarge", code: 5)
}
