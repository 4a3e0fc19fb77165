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

    /// A study group of the module whose codes are ``BadBackend/StudyGroupCode``.
    static func studyGroup(id: Int, _ dirt: Dirt?) -> JSONText {
        var members: [JSONText] = [(1, "Ada"), (2, "Grace"), (3, "Linus")].map { member in
            .object([("id", number(member.0, dirt)), ("nickname", .string(member.1))])
        }
        if dirt == .brokenArrayElement { members[1] = .object([("id", .null), ("nickname", .int(42))]) }
        return .object(
            [
                ("id", number(id, dirt)),
                ("name", .string("Calculus B")),
                ("teamCode", dirt == .nullsAndMissingFields ? .null : .string("K7Q2")),
                ("role", .string(dirt == .unknownEnumValues ? "co-owner" : "owner")),
                ("memberCount", number(3, dirt)),
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
