/// An article a scene of the tour points to, for the reader who wants the how and why.
enum TourArticle: String {
    case backstopJSON = "BackstopJSON"
    case unwrapping = "Unwrapping Envelopes and Handling Errors"
    case callingYourBackend = "Calling Your Backend"
    case sessions = "Sessions"
    case survivingAnOutage = "Surviving an Outage"
    case showingSavedData = "Showing Saved Data During an Outage"
    case recoveringFromErrors = "Recovering from Errors"
    case tellingYourBackendTeam = "Telling Your Backend Team What's Broken"
    case testing = "Testing an App That Uses Backstop"
    case scenarioPaths = "Scenario paths"
    case resources = "Resources and their fields"
    case generatedClients = "Generated Clients"
    case rehearsingYourOwnAPI = "Rehearsing Your Own API"

    /// Where the article's source is in a clone of the repository.
    var file: String {
        switch self {
        case .backstopJSON: "Sources/BackstopJSON/BackstopJSON.docc/BackstopJSON.md"
        case .unwrapping: "Sources/Backstop/Backstop.docc/UnwrappingEnvelopesAndHandlingErrors.md"
        case .callingYourBackend: "Sources/Backstop/Backstop.docc/CallingYourBackend.md"
        case .sessions: "Sources/Backstop/Backstop.docc/Sessions.md"
        case .survivingAnOutage: "Sources/Backstop/Backstop.docc/SurvivingAnOutage.md"
        case .showingSavedData: "Sources/Backstop/Backstop.docc/ShowingSavedDataDuringAnOutage.md"
        case .recoveringFromErrors: "Sources/Backstop/Backstop.docc/RecoveringFromErrors.md"
        case .tellingYourBackendTeam: "Sources/Backstop/Backstop.docc/TellingYourBackendTeamWhatsBroken.md"
        case .testing: "Sources/Backstop/Backstop.docc/TestingAnAppThatUsesBackstop.md"
        case .scenarioPaths: "Sources/BadBackend/BadBackend.docc/ScenarioPaths.md"
        case .resources: "Sources/BadBackend/BadBackend.docc/Resources.md"
        case .generatedClients: "Sources/BackstopOpenAPI/BackstopOpenAPI.docc/GeneratedClients.md"
        case .rehearsingYourOwnAPI: "Sources/BadBackend/BadBackend.docc/RehearsingYourOwnAPI.md"
        }
    }

    /// The title and the file, as the tour prints them.
    var reference: String { "“\(rawValue)”, \(file)" }
}
