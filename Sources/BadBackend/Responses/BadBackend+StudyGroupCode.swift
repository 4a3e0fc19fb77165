extension BadBackend {
    /// The study-group feature's own business codes, those of the seed article on module errors.
    ///
    /// Nested in ``BadBackend`` so an app's own `StudyGroupCode`, which the articles tell it to
    /// declare, never clashes with it in a test that imports both.
    public enum StudyGroupCode: Int, Sendable, CaseIterable {
        /// Wrong team code.
        case wrongTeamCode = 11210005
        /// Class not found.
        case classNotFound = 11210006
        /// Nickname already exists.
        case nicknameExists = 11210007
        /// Joined this class three times.
        case joinClassThreeTimes = 11210008
        /// Wrong current identity.
        case curIdentifierError = 11210011
        /// Nickname already used for this identity.
        case identityNickNameExists = 11210014
        /// Too many classes created.
        case createClassMax = 11210015
        /// Too many class code checks.
        case checkClassCodeMax = 11210016
        /// Too many teams joined.
        case joinTeamMax = 11210017
        /// The class is full.
        case studentCountMax = 11210018
        /// Folders nest too deep.
        case folderLevelLimit = 11210027
        /// Invalid check-in frequency.
        case clockFrequencyInvalid = 11210036

        /// The scenario name, and what the server says in the envelope's message.
        var scenario: (name: String, message: String) {
            switch self {
            case .wrongTeamCode: ("wrong-team-code", "Wrong team code")
            case .classNotFound: ("class-not-found", "Class not found")
            case .nicknameExists: ("nickname-exists", "Nickname already exists")
            case .joinClassThreeTimes: ("join-class-three-times", "Joined this class three times")
            case .curIdentifierError: ("cur-identifier-error", "Wrong current identity")
            case .identityNickNameExists: ("identity-nickname-exists", "Nickname already used for this identity")
            case .createClassMax: ("create-class-max", "Too many classes created")
            case .checkClassCodeMax: ("check-class-code-max", "Too many class code checks")
            case .joinTeamMax: ("join-team-max", "Too many teams joined")
            case .studentCountMax: ("student-count-max", "The class is full")
            case .folderLevelLimit: ("folder-level-limit", "Folders nest too deep")
            case .clockFrequencyInvalid: ("clock-frequency-invalid", "Invalid check-in frequency")
            }
        }
    }
}
