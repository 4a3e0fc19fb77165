/// A request path read as BadBackend's routes: `[/scenarios/<scenario>]/<style>/<resource>`.
struct Route: Equatable {
    /// What a path asks for, after its style.
    enum Resource: Equatable {
        case products
        case product(id: Int)
        case studyGroups
        case studyGroup(id: Int)
        case account
        case signIn
        case refresh
        /// The request itself, at `/{style}/echo` or any path below it.
        case echo
        /// A payload of this many bytes.
        case sized(bytes: Int)

        /// The largest payload `/{style}/sized/{bytes}` serves: enough for any size limit, and
        /// never a request that makes the server run out of memory.
        static let maximumSize = 16 << 20

        /// Each resource's method, path pattern and summary, as `GET /scenarios` lists them.
        static let catalogue: [(method: String, path: String, summary: String)] = [
            ("GET", "/{style}/products", "three products"),
            ("GET", "/{style}/products/{id}", "product 1, 2 or 3; any other id is a 404 with code 40400"),
            ("GET", "/{style}/study-groups", "study groups 7, 8 and 9"),
            ("GET", "/{style}/study-groups/{id}", "a study group, the feature whose module codes the scenarios use"),
            ("GET", "/{style}/account", "the signed-in user; needs a bearer access token"),
            ("POST", "/{style}/auth/sign-in", "issues short-lived tokens; any body signs in"),
            ("POST", "/{style}/auth/refresh", #"body {"refreshToken":"…"}: rotates the tokens"#),
            ("ANY", "/{style}/echo[/{any path}]", "the request's method, path, headers and body, whatever its credentials"),
            ("GET", "/{style}/sized/{bytes}", "a string payload of exactly that many bytes, up to 16 MiB"),
        ]

        /// The one method the resource answers, or `nil` for the echo, which answers every method.
        var method: String? {
            switch self {
            case .signIn, .refresh: "POST"
            case .echo: nil
            default: "GET"
            }
        }

        /// Sign-in and refresh: never given random faults, never asked for an access token.
        var isAuth: Bool { self == .signIn || self == .refresh }

        /// Whether a bearer token, when sent, must be valid: not for auth, nor for the echo,
        /// which mirrors any header it gets.
        var checksCredentials: Bool { !isAuth && self != .echo }
    }

    /// Why a path names nothing BadBackend serves.
    struct Unknown: Error {
        let reason: String
    }

    var scenario: Scenario?
    var style: EnvelopeStyle
    var resource: Resource

    init(scenario: Scenario?, style: EnvelopeStyle, resource: Resource) {
        self.scenario = scenario
        self.style = style
        self.resource = resource
    }

    init(path: String) throws(Unknown) {
        var segments = path.split(separator: "/").map(String.init)
        if segments.first == "scenarios", segments.count > 1 {
            guard let scenario = Scenario(name: segments[1]) else {
                throw Unknown(reason: "no scenario is named '\(segments[1])'")
            }
            self.scenario = scenario
            segments.removeFirst(2)
        }
        guard let first = segments.first, let style = EnvelopeStyle(rawValue: first) else {
            throw Unknown(reason: "a path starts with an envelope style, a, b or c, after any /scenarios/<name>")
        }
        self.style = style
        switch Array(segments.dropFirst()) {
        case ["products"]: resource = .products
        case let parts where parts.count == 2 && parts[0] == "products":
            guard let id = Int(parts[1]) else { throw Unknown(reason: "a product id is a whole number") }
            resource = .product(id: id)
        case ["study-groups"]: resource = .studyGroups
        case let parts where parts.count == 2 && parts[0] == "study-groups":
            guard let id = Int(parts[1]) else { throw Unknown(reason: "a study group id is a whole number") }
            resource = .studyGroup(id: id)
        case ["account"]: resource = .account
        case ["auth", "sign-in"]: resource = .signIn
        case ["auth", "refresh"]: resource = .refresh
        case let parts where parts.first == "echo": resource = .echo
        case let parts where parts.count == 2 && parts[0] == "sized":
            guard let bytes = Int(parts[1]), (0...Resource.maximumSize).contains(bytes) else {
                throw Unknown(reason: "a size is a whole number of bytes from 0 to \(Resource.maximumSize)")
            }
            resource = .sized(bytes: bytes)
        default: throw Unknown(reason: "no resource at \(path)")
        }
    }
}
