import Backstop

/// What the study-group screen shows.
public enum GroupScreen: Equatable, Sendable {
    case group(StudyGroup)
    case teamCodeHint
    case classGone
    /// Everything else is the presenter's: an alert with the actions the user can take.
    case alert
}

extension GroupScreen {
    /// Loads the group at `path`: the feature's `switch` lists its own codes and the general
    /// ones, exhaustively, and gives the rest to the presenter.
    @MainActor
    public static func load(_ path: String, networking: Networking, presenter: RecoveryPresenter) async -> GroupScreen {
        do {
            return .group(try await networking.client.send(Endpoint<StudyGroup, StudyGroupCode>(.get, path)))
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
