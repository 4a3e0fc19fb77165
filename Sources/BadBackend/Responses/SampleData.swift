/// The resources BadBackend serves, clean or with one kind of ``Dirt``.
///
/// Each builder writes the clean value and, for each dirt, the one change that dirt makes,
/// so a test can state exactly what a client must repair.
enum SampleData {
    struct Product {
        let id: Int
        let name: String
        let price: Double
        let inStock: Bool
        let stock: Int
        let category: String
        let tags: [String]
    }

    static let products = [
        Product(id: 1, name: "iPhone 17", price: 999.5, inStock: true, stock: 12, category: "phone", tags: ["new", "5g"]),
        Product(id: 2, name: "AirPods", price: 179, inStock: true, stock: 40, category: "audio", tags: ["wireless"]),
        Product(id: 3, name: "特製商品", price: 42, inStock: false, stock: 0, category: "gift", tags: []),
    ]

    /// All products; with ``Dirt/brokenArrayElement`` the second is replaced by a broken one.
    static func productList(_ dirt: Dirt?) -> JSONText {
        .array(
            products.enumerated().map { index, product in
                if dirt == .brokenArrayElement && index == 1 {
                    return .object([("id", .string("two?")), ("name", .null), ("price", .array([]))])
                }
                return self.product(product, dirt == .brokenArrayElement ? nil : dirt)
            })
    }

    /// One product; with ``Dirt/brokenArrayElement`` its second tag is an object.
    static func product(_ product: Product, _ dirt: Dirt?) -> JSONText {
        var tags: [JSONText] = product.tags.map(JSONText.string)
        if dirt == .brokenArrayElement { tags.insert(.object([("oops", .bool(true))]), at: min(1, tags.count)) }
        return .object(
            [
                ("id", number(product.id, dirt)),
                ("name", .string(product.name)),
                (
                    "price",
                    dirt == .numbersAsStrings
                        ? .string(String(product.price)) : dirt == .nullsAndMissingFields ? .null : .double(product.price)
                ),
                ("inStock", dirt == .numbersAsStrings ? .string(String(product.inStock)) : .bool(product.inStock)),
                ("stock", number(product.stock, dirt)),
                ("category", .string(dirt == .unknownEnumValues ? "hologram" : product.category)),
                ("tags", .array(tags)),
            ].filter { !(dirt == .nullsAndMissingFields && $0.0 == "stock") })
    }

    struct StudyGroup {
        let id: Int
        let name: String
        let teamCode: String
        let role: String
        let members: [(id: Int, nickname: String)]
    }

    /// Study group 7, whose fields any id but a listed one's gets.
    static let calculus = StudyGroup(
        id: 7, name: "Calculus B", teamCode: "K7Q2", role: "owner", members: [(1, "Ada"), (2, "Grace"), (3, "Linus")])

    /// The study groups `GET /{style}/study-groups` lists, the signed-in user's (7 and 8) first.
    static let studyGroups = [
        calculus,
        StudyGroup(id: 8, name: "Linear Algebra", teamCode: "M3X8", role: "member", members: [(1, "Ada"), (4, "Alan")]),
        StudyGroup(
            id: 9, name: "Organic Chemistry", teamCode: "R5C9", role: "member",
            members: [(2, "Grace"), (5, "Rosalind"), (6, "Dorothy"), (7, "Marie")]),
    ]

    /// All study groups; with ``Dirt/brokenArrayElement`` the second is replaced by a broken one.
    static func studyGroupList(_ dirt: Dirt?) -> JSONText {
        .array(
            studyGroups.enumerated().map { index, group in
                if dirt == .brokenArrayElement && index == 1 {
                    return .object([("id", .string("eight?")), ("name", .null), ("members", .object([]))])
                }
                return studyGroup(group, dirt == .brokenArrayElement ? nil : dirt)
            })
    }

    /// The study group with `id`: a listed one as listed, any other as group 7 with that id.
    static func studyGroup(id: Int, _ dirt: Dirt?) -> JSONText {
        let group =
            studyGroups.first { $0.id == id }
            ?? StudyGroup(id: id, name: calculus.name, teamCode: calculus.teamCode, role: calculus.role, members: calculus.members)
        return studyGroup(group, dirt)
    }

    /// A study group of the module whose codes are ``BadBackend/StudyGroupCode``; with
    /// ``Dirt/brokenArrayElement`` its second member is broken.
    static func studyGroup(_ group: StudyGroup, _ dirt: Dirt?) -> JSONText {
        var members: [JSONText] = group.members.map { member in
            .object([("id", number(member.id, dirt)), ("nickname", .string(member.nickname))])
        }
        if dirt == .brokenArrayElement && members.count > 1 { members[1] = .object([("id", .null), ("nickname", .int(42))]) }
        return .object(
            [
                ("id", number(group.id, dirt)),
                ("name", .string(group.name)),
                ("teamCode", dirt == .nullsAndMissingFields ? .null : .string(group.teamCode)),
                ("role", .string(dirt == .unknownEnumValues ? "co-owner" : group.role)),
                ("memberCount", number(group.members.count, dirt)),
                ("members", .array(members)),
            ].filter { !(dirt == .nullsAndMissingFields && $0.0 == "memberCount") })
    }

    /// The signed-in user; served only with a valid access token.
    static func account(_ dirt: Dirt?) -> JSONText {
        var groups: [JSONText] = [number(7, dirt), number(8, dirt)]
        if dirt == .brokenArrayElement { groups[1] = .string("eight?") }
        return .object([
            ("id", number(1, dirt)),
            ("name", .string("Ada")),
            ("email", dirt == .nullsAndMissingFields ? .null : .string("ada@example.com")),
            ("plan", .string(dirt == .unknownEnumValues ? "platinum" : "pro")),
            ("groups", .array(groups)),
        ])
    }

    /// What sign-in and refresh answer.
    static func tokens(_ tokens: IssuedTokens, _ dirt: Dirt?) -> JSONText {
        var scopes: [JSONText] = [.string("read"), .string("write")]
        if dirt == .brokenArrayElement { scopes[1] = .int(7) }
        return .object([
            ("accessToken", .string(tokens.access)),
            ("refreshToken", dirt == .nullsAndMissingFields ? .null : .string(tokens.refresh)),
            ("tokenType", .string(dirt == .unknownEnumValues ? "Mystery" : "Bearer")),
            ("expiresIn", number(tokens.lifetimeSeconds, dirt)),
            ("scopes", .array(scopes)),
        ])
    }

    private static func number(_ value: Int, _ dirt: Dirt?) -> JSONText {
        dirt == .numbersAsStrings ? .string(String(value)) : .int(value)
    }
}
