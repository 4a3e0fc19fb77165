// The "envelope" payload: the shape many REST backends wrap every response in,
// `{"code":200,"msg":"OK","data":{"items":[...]}}`, here with 20,000 product items.
//
// It is generated in code, deterministically, in two variants:
// - clean: valid for the model, so Foundation's JSONDecoder and both BackstopJSON policies decode it;
// - dirty: the same items, but every 10th one is broken in one of the ways a lenient decoder
//   repairs (see `Breakage`). Foundation (and BackstopJSON .strict) reject it.

package struct Envelope: Codable, Equatable, Sendable {
    var code: Int
    var msg: String
    var data: EnvelopeData

    package init(code: Int, msg: String, data: EnvelopeData) {
        self.code = code
        self.msg = msg
        self.data = data
    }
}

package struct EnvelopeData: Codable, Equatable, Sendable {
    var items: [Product]

    package init(items: [Product]) { self.items = items }
}

package struct Product: Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var price: Double
    var inStock: Bool
    var tags: [String]
    var rating: Double?
    var category: String
    var updatedAt: String
}

package enum EnvelopePayload {
    package static let itemCount = 20_000
    /// Every `dirtyStride`-th item of the dirty variant is broken (one breakage per broken item).
    package static let dirtyStride = 10

    /// The ways a dirty item is broken, in rotation.
    package enum Breakage: Int, CaseIterable {
        case idAsString  // "id":"123"          -> coerced to 123
        case priceAsString  // "price":"12.5"      -> coerced to 12.5
        case missingCategory  // no "category" key   -> defaulted to ""
        case nullName  // "name":null         -> defaulted to ""
        case inStockAsNumberOrString  // 1 / 0 / "true" / "false" -> coerced to Bool
    }

    package static func breakage(ofItem index: Int) -> Breakage? {
        guard index % dirtyStride == dirtyStride - 1 else { return nil }
        let cases = Breakage.allCases
        return cases[(index / dirtyStride) % cases.count]
    }

    private static let categories = ["books", "electronics", "garden", "toys", "grocery", "sports", "beauty", "automotive"]
    private static let tagPool = ["new", "sale", "popular", "eco", "limited", "gift", "bundle", "clearance", "premium", "café"]

    /// The items both variants describe, as model values.
    package static func items(count: Int = itemCount) -> [Product] {
        (0..<count).map { i in
            let tagCount = i % 4
            let tags = (0..<tagCount).map { tagPool[(i * 7 + $0 * 3) % tagPool.count] }
            let cents = (i * 7_919) % 100_000 + 99
            return Product(
                id: 1_000_000 + i,
                name: i % 50 == 0 ? "Product \(i) \"special\" edition" : "Product \(i)",
                price: Double(cents) / 100,
                inStock: i % 3 != 0,
                tags: tags,
                rating: i % 7 == 0 ? nil : Double((i * 31) % 50 + 1) / 10,
                category: categories[i % categories.count],
                updatedAt: timestamp(i)
            )
        }
    }

    /// What a lenient decode of the dirty variant must produce: the clean items, except that a
    /// missing or null String becomes "" (coercions lose nothing).
    package static func expectedLenientDirtyItems() -> [Product] {
        var items = items()
        for i in items.indices {
            switch breakage(ofItem: i) {
            case .missingCategory: items[i].category = ""
            case .nullName: items[i].name = ""
            default: break
            }
        }
        return items
    }

    package static var brokenItemCount: Int { (0..<itemCount).filter { breakage(ofItem: $0) != nil }.count }

    package static func json(dirty: Bool, count: Int = itemCount) -> String {
        var out = #"{"code":200,"msg":"OK","data":{"items":["#
        out.reserveCapacity(count * 190)
        for (i, item) in items(count: count).enumerated() {
            if i > 0 { out += "," }
            let broken = dirty ? breakage(ofItem: i) : nil
            var fields: [String] = []
            fields.append(broken == .idAsString ? #""id":"\#(item.id)""# : #""id":\#(item.id)"#)
            fields.append(broken == .nullName ? #""name":null"# : #""name":\#(quoted(item.name))"#)
            let price = priceText(item.price)
            fields.append(broken == .priceAsString ? #""price":"\#(price)""# : #""price":\#(price)"#)
            if broken == .inStockAsNumberOrString {
                // Alternate between the numeric and the string spellings.
                let spelled =
                    (i / (dirtyStride * Breakage.allCases.count)) % 2 == 0
                    ? (item.inStock ? "1" : "0")
                    : (item.inStock ? #""true""# : #""false""#)
                fields.append(#""inStock":\#(spelled)"#)
            } else {
                fields.append(#""inStock":\#(item.inStock)"#)
            }
            fields.append(#""tags":[\#(item.tags.map(quoted).joined(separator: ","))]"#)
            fields.append(#""rating":\#(item.rating.map { "\($0)" } ?? "null")"#)
            if broken != .missingCategory {
                fields.append(#""category":\#(quoted(item.category))"#)
            }
            fields.append(#""updatedAt":\#(quoted(item.updatedAt))"#)
            out += "{" + fields.joined(separator: ",") + "}"
        }
        out += "]}}"
        return out
    }

    /// Shortest round-tripping text, which is what Swift's description already is.
    private static func priceText(_ value: Double) -> String { "\(value)" }

    private static func quoted(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    private static func timestamp(_ i: Int) -> String {
        let day = i % 28 + 1
        let month = i % 12 + 1
        let hour = i % 24
        let minute = (i * 13) % 60
        let second = (i * 17) % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "2025-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }
}
