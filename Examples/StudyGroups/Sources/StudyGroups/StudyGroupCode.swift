import Backstop

/// The study-group feature's own codes, declared beside the feature.
public enum StudyGroupCode: Int, ServerCode {
    case wrongTeamCode = 11210005
    case classNotFound = 11210006
}
