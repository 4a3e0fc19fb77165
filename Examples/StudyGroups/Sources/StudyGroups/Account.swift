/// The signed-in user, as `GET b/account` answers it.
public struct Account: Decodable, Sendable, Equatable {
    public var id: Int
    public var name: String

    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}
