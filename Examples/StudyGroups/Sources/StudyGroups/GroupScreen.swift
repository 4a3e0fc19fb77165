import Backstop

/// What the study-groups screen shows.
public enum GroupScreen: Equatable, Sendable {
    case groups([StudyGroup])
    /// The groups as last loaded, while the backend or the network is down, and the notice to
    /// show above them ("Showing what was saved at 10:42.") instead of an alert.
    case savedGroups([StudyGroup], notice: RecoveryNotice)
    case teamCodeHint
    case classGone
    /// Everything else is the presenter's: an alert with the actions the user can take.
    case alert
}

extension GroupScreen {
    /// Loads the study groups at `path`: the feature's `switch` lists its own codes and the
    /// general ones, exhaustively, and gives the rest to the presenter. When the backend or the
    /// network fails and the list was loaded before, the pipeline answers the saved list instead
    /// (`Networking`'s `SavedAnswers`), and the screen shows it with the presenter's notice.
    ///
    /// - Parameter path: `b/study-groups`, or the same list behind a BadBackend scenario.
    @MainActor
    public static func load(_ path: String, networking: Networking, presenter: RecoveryPresenter) async -> GroupScreen {
        do {
            let response = try await networking.client.response(for: Endpoint<[StudyGroup], StudyGroupCode>(.get, path))
            guard let saved = response.savedAnswer else { return .groups(response.payload) }
            return .savedGroups(response.payload, notice: presenter.policy.notice(for: saved, locale: presenter.locale))
        } catch {
            switch error {
            case .server(.module(.wrongTeamCode, _)): return .teamCodeHint
            case .server(.module(.classNotFound, _)): return .classGone
            case .server(.general), .server(.unknown), .transport, .http, .decoding, .client:
                presenter.present(error)
                return .alert
            }
        }
    }
}
