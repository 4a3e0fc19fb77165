import Foundation

#if OpenAPI
    import OpenAPIKit
#else
    #error("BackstopOpenAPI needs Backstop's OpenAPI trait: .package(name: \"Backstop\", …, traits: [\"OpenAPI\"])")
#endif

/// Makes a value a schema allows: its first example when it has one, else one generated from
/// its type, format, enum, bounds and lengths, the same for the same seed.
///
/// Bounded whatever the schema: below ``softDepth`` levels an object gets all its properties,
/// below ``hardDepth`` only its required ones and an array none, and past that a value is
/// `null`; a list has at most ``maximumItems`` elements and a string ``maximumLength``
/// characters; after ``maximumNodes`` values only what is required is added. A recursive
/// schema (a tree of regions) therefore ends, and so does one chained 10,000 levels deep.
package struct SampleGenerator {
    package static let softDepth = 6
    package static let hardDepth = 24
    package static let maximumItems = 3
    package static let maximumLength = 64
    package static let maximumNodes = 2_000

    let components: OpenAPI.Components
    /// Whether an object's properties are made in name order, not the document's: Foundation's
    /// JSON decoder does not keep a JSON document's member order, which would change the values
    /// a seed gives from one run to the next.
    let sortsProperties: Bool
    private var random: SeededRandom
    private var nodes = 0

    package init(components: OpenAPI.Components, seed: UInt64, sortsProperties: Bool = false) {
        self.components = components
        self.sortsProperties = sortsProperties
        random = SeededRandom(seed: seed)
    }

    /// A value `schema` allows.
    package mutating func value(for schema: JSONSchema) -> SampleJSON {
        value(for: schema, depth: 0)
    }

    private mutating func value(for schema: JSONSchema, depth: Int) -> SampleJSON {
        nodes += 1
        guard depth < Self.hardDepth else { return .null }
        if let example = schema.examples.first, let value = Self.sample(example) { return value }
        if let allowed = schema.allowedValues, !allowed.isEmpty {
            let pick = allowed[random.below(allowed.count)]
            if let value = Self.sample(pick) { return value }
        }
        switch schema.value {
        case .null: return .null
        case .boolean: return .bool(random.below(2) == 0)
        case .integer(_, let context): return .number(String(integer(in: context, format: schema.formatString ?? "")))
        case .number(_, let context): return .number(number(in: context))
        case .string(_, let context): return .string(string(format: schema.formatString ?? "", context: context))
        case .object(_, let context): return object(context, depth: depth)
        case .array(_, let context):
            guard depth < Self.softDepth * 2, let items = context.items else { return .array([]) }
            let wanted = max(context.minItems, nodes < Self.maximumNodes ? 2 : 0)
            let count = min(wanted, context.maxItems ?? Int.max, max(Self.maximumItems, min(context.minItems, 16)))
            return .array((0..<max(count, 0)).map { _ in value(for: items, depth: depth + 1) })
        case .reference(let reference, _):
            guard let name = reference.name, let target = components.schemas[.init(stringLiteral: name)] else { return .null }
            return value(for: target, depth: depth + 1)
        case .all(let parts, _):
            var members: [(String, SampleJSON)] = []
            for part in parts {
                switch value(for: part, depth: depth + 1) {
                case .object(let more):
                    for member in more {
                        if let index = members.firstIndex(where: { $0.0 == member.0 }) {
                            members[index] = member
                        } else {
                            members.append(member)
                        }
                    }
                case let other where members.isEmpty && parts.count == 1:
                    return other
                default:
                    continue
                }
            }
            return .object(members)
        case .one(let alternatives, _), .any(let alternatives, _):
            return alternative(of: schema, alternatives, depth: depth)
        case .not, .fragment:
            return .string("value")
        }
    }

    private mutating func object(_ context: JSONSchema.ObjectContext, depth: Int) -> SampleJSON {
        let required = Set(context.requiredProperties)
        var members: [(String, SampleJSON)] = []
        let properties = sortsProperties ? context.properties.sorted { $0.key < $1.key } : Array(context.properties)
        for (name, property) in properties {
            guard required.contains(name) || (depth < Self.softDepth && nodes < Self.maximumNodes) else { continue }
            members.append((name, value(for: property, depth: depth + 1)))
        }
        if members.isEmpty, case .b(let additional)? = context.additionalProperties, depth < Self.softDepth {
            members.append(("key1", value(for: additional, depth: depth + 1)))
        }
        return .object(members)
    }

    /// One alternative, seeded; with a discriminator, its property says which, as the mapping
    /// (or the component's name) spells it.
    private mutating func alternative(of schema: JSONSchema, _ alternatives: [JSONSchema], depth: Int) -> SampleJSON {
        let candidates = alternatives.filter { if case .null = $0.value { false } else { true } }
        guard !candidates.isEmpty else { return .null }
        let chosen = candidates[random.below(candidates.count)]
        var value = value(for: chosen, depth: depth + 1)
        guard let discriminator = schema.discriminator, case .reference(let reference, _) = chosen.value, let name = reference.name,
            case .object(var members) = value
        else { return value }
        let written = reference.absoluteString
        let tag =
            discriminator.mapping?.first { $0.value == written || $0.value == name }?.key ?? name
        if let index = members.firstIndex(where: { $0.0 == discriminator.propertyName }) {
            members[index].1 = .string(tag)
        } else {
            members.insert((discriminator.propertyName, .string(tag)), at: 0)
        }
        value = .object(members)
        return value
    }

    private mutating func integer(in context: JSONSchema.IntegerContext, format: String) -> Int64 {
        let limit: Int64 = format == "int32" ? Int64(Int32.max) : Int64.max / 2
        var low = Int64(context.minimum.map { $0.exclusive ? $0.value &+ 1 : $0.value } ?? 1)
        var high = Int64(context.maximum.map { $0.exclusive ? $0.value &- 1 : $0.value } ?? Int(max(low, 0) + 999))
        low = max(low, -limit)
        high = min(high, limit)
        guard low < high else { return low }
        var value = low + Int64(random.below(Int(min(high - low, 1_000_000)) + 1))
        if let step = context.multipleOf, step > 0 { value = (value / Int64(step)) * Int64(step) }
        return min(max(value, low), high)
    }

    private mutating func number(in context: JSONSchema.NumericContext) -> String {
        let low = context.minimum?.value ?? 0
        let high = context.maximum?.value ?? (low + 1000)
        guard low.isFinite, high.isFinite, low < high else { return SampleJSON.text(of: low.isFinite ? low : 0) }
        let fraction = Double(random.below(10_000)) / 10_000
        var value = ((low + (high - low) * fraction) * 100).rounded() / 100
        if context.minimum?.exclusive == true, value <= low { value = low + (high - low) / 2 }
        if context.maximum?.exclusive == true, value >= high { value = low + (high - low) / 2 }
        return SampleJSON.text(of: min(max(value, low), high))
    }

    private mutating func string(format: String, context: JSONSchema.StringContext) -> String {
        let day = 1 + random.below(28)
        let hour = random.below(24)
        let text: String
        switch format {
        case "date-time": text = "2024-05-\(Self.two(day))T\(Self.two(hour)):00:00Z"
        case "date": text = "2024-05-\(Self.two(day))"
        case "time": text = "\(Self.two(hour)):30:00"
        case "uuid":
            let hex = (0..<32).map { _ in String(random.below(16), radix: 16) }.joined()
            let parts = [
                hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20),
            ]
            text = parts.map(String.init).joined(separator: "-")
        case "email": text = "user\(random.below(100))@example.com"
        case "uri", "url", "uri-reference": text = "https://example.com/items/\(random.below(1000))"
        case "hostname": text = "host\(random.below(100)).example.com"
        case "ipv4": text = "192.0.2.\(1 + random.below(254))"
        case "ipv6": text = "2001:db8::\(1 + random.below(254))"
        case "byte": text = "YmFja3N0b3A="
        case "password": text = "********"
        default:
            text = Self.words[random.below(Self.words.count)] + String(random.below(100))
        }
        let minimum = min(context.minLength, Self.maximumLength)
        let maximum = max(min(context.maxLength ?? Int.max, Self.maximumLength), minimum)
        var fitted = text
        while fitted.count < minimum { fitted += "x" }
        if fitted.count > maximum { fitted = String(fitted.prefix(maximum)) }
        return fitted
    }

    private static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// An example or enum value from the document, as JSON.
    static func sample(_ value: AnyCodable) -> SampleJSON? {
        guard let data = try? JSONEncoder().encode(value) else { return nil }
        return SampleJSON(parsing: data)
    }
}
