import BackstopJSON
import Foundation
import Testing

/// Lenient decoding repairs what loses nothing or is safely bounded, and reports every
/// repair exactly once, with enough detail to file a backend bug from the log alone.
@Suite struct LenientDecodingTests {
    let lenient = ResilientJSONDecoder.lenient
    let strict = ResilientJSONDecoder.strict

    private func report<T: Decodable>(_ type: T.Type, _ json: String, decoder: ResilientJSONDecoder = .lenient) throws -> DecodingReport<T>
    {
        try decoder.decodeWithReport(type, from: Data(json.utf8))
    }

    // MARK: Coercions

    struct Scalars: Decodable, Equatable {
        var count: Int
        var price: Double
        var label: String
        var active: Bool
    }

    @Test func coercesLosslessScalars() throws {
        let result = try report(Scalars.self, #"{"count":"42","price":"12.5","label":42,"active":"true"}"#)
        #expect(result.value == Scalars(count: 42, price: 12.5, label: "42", active: true))
        #expect(
            result.repairs == [
                Repair(path: "$.count", expected: "Int", found: .init(kind: .string, excerpt: #""42""#), action: .coerced),
                Repair(path: "$.price", expected: "Double", found: .init(kind: .string, excerpt: #""12.5""#), action: .coerced),
                Repair(path: "$.label", expected: "String", found: .init(kind: .number, excerpt: "42"), action: .coerced),
                Repair(path: "$.active", expected: "Bool", found: .init(kind: .string, excerpt: #""true""#), action: .coerced),
            ])
        #expect(throws: DecodingError.self) {
            _ = try strict.decode(Scalars.self, from: Data(#"{"count":"42","price":1,"label":"","active":true}"#.utf8))
        }
    }

    @Test(arguments: [
        (#""true""#, true, JSONKind.string), (#""false""#, false, .string), ("1", true, .number), ("0", false, .number),
        (#""1""#, true, .string), (#""0""#, false, .string),
    ])
    func coercesBools(_ text: String, _ expected: Bool, _ kind: JSONKind) throws {
        let result = try report([String: Bool].self, #"{"flag":\#(text)}"#)
        #expect(result.value == ["flag": expected])
        #expect(result.repairs == [Repair(path: "$.flag", expected: "Bool", found: .init(kind: kind, excerpt: text), action: .coerced)])
    }

    /// Coercion must never lose or invent information: anything that is not exactly a number
    /// or a boolean stays an error rather than a guess.
    @Test(arguments: [#""42 ""#, #"" 42""#, #""+42""#, #""0x2A""#, #""4.2e1.0""#, #""""#, #""NaN""#, #""1,000""#, "true", "[42]"])
    func refusesLossyNumberCoercions(_ text: String) {
        #expect(throws: DecodingError.self) { _ = try report(Box<Int>.self, #"{"value":\#(text)}"#) }
        #expect(throws: DecodingError.self) { _ = try report(Box<Double>.self, #"{"value":\#(text)}"#) }
    }

    @Test func refusesCoercionsThatWouldLoseDigits() throws {
        #expect(throws: DecodingError.self) { _ = try report(Box<Int>.self, #"{"value":"12.5"}"#) }
        #expect(throws: DecodingError.self) { _ = try report(Box<UInt8>.self, #"{"value":"300"}"#) }
        #expect(throws: DecodingError.self) { _ = try report(Box<Bool>.self, #"{"value":2}"#) }
        #expect(throws: DecodingError.self) { _ = try report(Box<Bool>.self, #"{"value":"yes"}"#) }
        #expect(throws: DecodingError.self) { _ = try report(Box<String>.self, #"{"value":true}"#) }
        // A number read as a String keeps the text as written: no reformatting.
        #expect(try report([String: String].self, #"{"n":1.50e3}"#).value == ["n": "1.50e3"])
    }

    @Test func coercionsInsideArraysNameTheElement() throws {
        let result = try report(Box<[Int]>.self, #"{"value":[1,"2",3]}"#)
        #expect(result.value.value == [1, 2, 3])
        #expect(result.repairs.map(\.path) == ["$.value[1]"])
    }

    // MARK: Defaults

    struct Defaults: Decodable, Equatable {
        var int: Int
        var string: String
        var bool: Bool
        var double: Double
        var list: [Int]
        var map: [String: Int]
        var currency: Currency
    }

    /// A type whose empty value is a safe stand-in, so it opts in to defaults.
    struct Currency: DefaultDecodable, Equatable {
        var code: String
        static var defaultValue: Currency { Currency(code: "XXX") }
    }

    static let defaultsValue = Defaults(int: 0, string: "", bool: false, double: 0, list: [], map: [:], currency: Currency(code: "XXX"))
    static let defaultsTypes = ["Int", "String", "Bool", "Double", "Array<Int>", "Dictionary<String, Int>", "Currency"]
    static let defaultsKeys = ["int", "string", "bool", "double", "list", "map", "currency"]

    @Test func missingValuesTakeDefaults() throws {
        let result = try report(Defaults.self, "{}")
        #expect(result.value == Self.defaultsValue)
        #expect(
            result.repairs
                == zip(Self.defaultsKeys, Self.defaultsTypes).map { key, type in
                    Repair(path: "$.\(key)", expected: type, found: .init(kind: .missing, excerpt: ""), action: .defaultedBecauseMissing)
                })
    }

    @Test func nullValuesTakeDefaults() throws {
        let json = "{" + Self.defaultsKeys.map { #""\#($0)":null"# }.joined(separator: ",") + "}"
        let result = try report(Defaults.self, json)
        #expect(result.value == Self.defaultsValue)
        #expect(
            result.repairs
                == zip(Self.defaultsKeys, Self.defaultsTypes).map { key, type in
                    Repair(path: "$.\(key)", expected: type, found: .init(kind: .null, excerpt: "null"), action: .defaultedBecauseNull)
                })
    }

    @Test func defaultsFollowThePolicy() {
        let noMissing = ResilientJSONDecoder(policy: DecodingPolicy.lenient.subtracting(.defaultMissingValues))
        let noNull = ResilientJSONDecoder(policy: DecodingPolicy.lenient.subtracting(.defaultNullValues))
        #expect(throws: DecodingError.self) { _ = try noMissing.decode(Box<Int>.self, from: Data("{}".utf8)) }
        #expect(throws: DecodingError.self) { _ = try noNull.decode(Box<Int>.self, from: Data(#"{"value":null}"#.utf8)) }
        #expect((try? noMissing.decode(Box<Int>.self, from: Data(#"{"value":null}"#.utf8)))?.value == 0)
    }

    /// Inventing a nested object would hide a broken response, so a required one that has
    /// no default stays an error, with the same case and path as strict decoding.
    @Test func requiredObjectWithoutDefaultIsStillMissing() {
        struct Address: Decodable, Equatable { var city: String }
        struct User: Decodable, Equatable {
            var name: String
            var address: Address
        }
        for decoder in [lenient, strict] {
            do {
                _ = try decoder.decode(User.self, from: Data(#"{"name":"A"}"#.utf8))
                Issue.record("expected keyNotFound")
            } catch DecodingError.keyNotFound(let key, let context) {
                #expect(key.stringValue == "address")
                #expect(context.codingPath.isEmpty)
            } catch {
                Issue.record("expected keyNotFound, got \(error)")
            }
        }
    }

    // MARK: Optionals

    struct Profile: Decodable, Equatable {
        var nickname: String?
        var age: Int?
        var address: Address?
        struct Address: Decodable, Equatable {
            var city: String
            var zip: Int
        }
    }

    @Test func invalidOptionalBecomesNil() throws {
        let result = try report(Profile.self, #"{"nickname":"n","age":[1],"address":{"city":"X","zip":"abc"}}"#)
        #expect(result.value == Profile(nickname: "n", age: nil, address: nil))
        #expect(result.repairs.map(\.action) == [.setToNil, .setToNil])
        #expect(result.repairs.map(\.path) == ["$.age", "$.address"])
        #expect(result.repairs[0].found == Repair.Found(kind: .array, excerpt: "[1]"))
        #expect(result.repairs[1].expected == "Address")
        #expect(result.repairs[1].reason?.contains("$.address.zip") == true)
        // Absent and null optionals are not repairs at all.
        #expect(try report(Profile.self, #"{"age":null}"#).repairs.isEmpty)
    }

    // MARK: Lossy collections

    struct Item: Decodable, Equatable {
        var id: Int
        var name: String
    }
    struct Catalog: Decodable, Equatable { var items: [Item] }

    @Test func brokenArrayElementIsDroppedAndOnlyThatIsReported() throws {
        // Element 1 is broken beyond repair, and also has a coercion inside it that must not be reported.
        let json = #"{"items":[{"id":1,"name":"a"},{"id":"2","name":{}},{"id":3,"name":"c"}]}"#
        let result = try report(Catalog.self, json)
        #expect(result.value.items == [Item(id: 1, name: "a"), Item(id: 3, name: "c")])
        #expect(result.repairs.count == 1)
        let repair = try #require(result.repairs.first)
        #expect(repair.path == "$.items[1]")
        #expect(repair.action == .dropped)
        #expect(repair.expected == "Item")
        #expect(repair.found.kind == .object)
        #expect(repair.found.excerpt == #"{"id":"2","name":{}}"#)
        #expect(repair.reason?.contains("$.items[1].name") == true)
    }

    @Test func repairsInsideKeptElementsAreReported() throws {
        let result = try report(Catalog.self, #"{"items":[{"id":"1","name":"a"},{"id":2,"name":5}]}"#)
        #expect(result.value.items == [Item(id: 1, name: "a"), Item(id: 2, name: "5")])
        #expect(result.repairs.map(\.path) == ["$.items[0].id", "$.items[1].name"])
    }

    @Test func brokenDictionaryEntryIsDropped() throws {
        let result = try report([String: Item].self, #"{"a":{"id":1,"name":"a"},"b":{"id":true,"name":"b"},"odd key":{"id":3,"name":"c"}}"#)
        #expect(result.value == ["a": Item(id: 1, name: "a"), "odd key": Item(id: 3, name: "c")])
        #expect(result.repairs.map(\.path) == ["$.b"])
        #expect(result.repairs.map(\.action) == [.dropped])
    }

    @Test func brokenSetElementIsDropped() throws {
        let result = try report(Box<Set<Int>>.self, #"{"value":[1,"x",3,1]}"#)
        #expect(result.value.value == [1, 3])
        #expect(result.repairs.map(\.path) == ["$.value[1]"])
        #expect(result.repairs.map(\.found) == [Repair.Found(kind: .string, excerpt: #""x""#)])
    }

    @Test func withoutDropInvalidElementsABrokenElementFailsTheDecode() {
        let decoder = ResilientJSONDecoder(policy: DecodingPolicy.lenient.subtracting(.dropInvalidElements))
        do {
            _ = try decoder.decode(Catalog.self, from: Data(#"{"items":[{"id":1,"name":"a"},{"id":[],"name":"b"}]}"#.utf8))
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 1", "id"])
        } catch {
            Issue.record("expected typeMismatch, got \(error)")
        }
        // Coercions the policy still allows keep working.
        #expect(
            (try? decoder.decode(Catalog.self, from: Data(#"{"items":[{"id":"1","name":"a"}]}"#.utf8)))?.items == [Item(id: 1, name: "a")])
    }

    /// With no lossy boundary between it and the root, a value that cannot be repaired fails
    /// the decode, and the error says where, as strict decoding's would.
    @Test func unrepairableValueWithoutBoundaryFails() {
        struct Order: Decodable {
            var id: Int
            var lines: [Line]
        }
        struct Line: Decodable {
            var sku: String
            var quantity: Int
        }
        do {
            _ = try lenient.decode(Order.self, from: Data(#"{"id":{"nested":true},"lines":[]}"#.utf8))
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["id"])
        } catch {
            Issue.record("expected typeMismatch, got \(error)")
        }
    }

    // MARK: Trailing commas

    @Test func trailingCommasAreAcceptedAndReportedOnlyWhenLenient() throws {
        let json = #"{"items":[{"id":1,"name":"a",},],"extra":[1,2,],}"#
        let result = try report(Catalog.self, json)
        #expect(result.value.items == [Item(id: 1, name: "a")])
        #expect(Set(result.repairs.map(\.path)) == ["$", "$.items", "$.items[0]", "$.extra"])
        #expect(result.repairs.allSatisfy { $0.action == .ignoredTrailingComma && $0.found.excerpt == "," })
        #expect(result.repairs.count == 4)
        #expect(throws: DecodingError.self) { _ = try strict.decode(Catalog.self, from: Data(json.utf8)) }
        let noCommas = ResilientJSONDecoder(policy: DecodingPolicy.lenient.subtracting(.allowTrailingCommas))
        #expect(throws: DecodingError.self) { _ = try noCommas.decode(Catalog.self, from: Data(json.utf8)) }
    }

    // MARK: Unknown enum cases

    enum Beverage: String, Codable, UnknownCaseRepresentable, Equatable {
        case coffee, tea, unknown
        static var unknownCase: Beverage { .unknown }
    }

    enum Size: Int, Codable, UnknownCaseRepresentable, Equatable {
        case small = 1
        case large = 2
        case other = 0
        static var unknownCase: Size { .other }
    }

    struct Order: Codable, Equatable {
        var drink: Beverage
        var size: Size
        var extras: [Beverage]
    }

    @Test func unknownCasesFallBackWithEitherDecoder() throws {
        let data = Data(#"{"drink":"matcha","size":7,"extras":["tea","kombucha"]}"#.utf8)
        let expected = Order(drink: .unknown, size: .other, extras: [.tea, .unknown])
        #expect(try JSONDecoder().decode(Order.self, from: data) == expected)
        #expect(try strict.decode(Order.self, from: data) == expected)
        let result = try lenient.decodeWithReport(Order.self, from: data)
        #expect(result.value == expected)
        #expect(result.repairs.map(\.path) == ["$.drink", "$.size", "$.extras[1]"])
        #expect(result.repairs.allSatisfy { $0.action == .fellBack })
        #expect(
            result.repairs.map(\.found) == [
                Repair.Found(kind: .string, excerpt: #""matcha""#), Repair.Found(kind: .number, excerpt: "7"),
                Repair.Found(kind: .string, excerpt: #""kombucha""#),
            ])
        #expect(result.repairs[0].reason?.contains("matcha") == true)
        #expect(result.repairs[0].expected == "Beverage")
    }

    @Test func knownCasesAndWrongTypesOfUnknownCaseEnums() throws {
        #expect(try lenient.decodeWithReport([Beverage].self, from: Data(#"["tea","coffee"]"#.utf8)).repairs.isEmpty)
        // A raw value of the wrong type is not an unknown case: it is an error, or a coercion.
        #expect(throws: DecodingError.self) { _ = try strict.decode(Box<Beverage>.self, from: Data(#"{"value":1}"#.utf8)) }
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Box<Size>.self, from: Data(#"{"value":"1"}"#.utf8)) }
        let coerced = try lenient.decodeWithReport(Box<Size>.self, from: Data(#"{"value":"1"}"#.utf8))
        #expect(coerced.value.value == .small)
        #expect(coerced.repairs.map(\.action) == [.coerced])
    }

    // MARK: Reporting

    @Test func cleanDataHasNoRepairs() throws {
        let json = #"{"items":[{"id":1,"name":"a"}]}"#
        let log = RepairLog()
        let decoder = ResilientJSONDecoder(policy: .lenient, reporter: log)
        let result = try decoder.decodeWithReport(Catalog.self, from: Data(json.utf8))
        #expect(result.repairs.isEmpty)
        #expect(log.repairs.isEmpty)
    }

    @Test func reporterReceivesEachDecodesRepairsOnce() throws {
        let log = RepairLog()
        let decoder = ResilientJSONDecoder(policy: .lenient, reporter: log)
        let json = Data(#"{"items":[{"id":"1","name":"a"},{"id":2}]}"#.utf8)
        let first = try decoder.decodeWithReport(Catalog.self, from: json)
        #expect(first.repairs.count == 2)
        #expect(log.repairs == first.repairs)
        _ = try decoder.decode(Catalog.self, from: json)
        #expect(log.repairs == first.repairs + first.repairs)
        log.removeAll()
        _ = try decoder.decode(Catalog.self, from: Data(#"{"items":[]}"#.utf8))
        #expect(log.repairs.isEmpty)
        // A decode that fails reports nothing, even if it made repairs before failing.
        #expect(throws: DecodingError.self) { _ = try decoder.decode(Catalog.self, from: Data(#"{"items":"x"}"#.utf8)) }
        #expect(log.repairs.isEmpty)
    }

    @Test func oddKeysRenderAsBracketedPaths() throws {
        let result = try report([String: [String: Int]].self, #"{"a b":{"it's":"1","0lead":"2","ok_1":"3","é":"4"}}"#)
        #expect(Set(result.repairs.map(\.path)) == ["$['a b']['it\\'s']", "$['a b']['0lead']", "$['a b'].ok_1", "$['a b']['é']"])
        #expect(JSONPath.string([AnyKey("a b"), AnyKey("x")]) == "$['a b'].x")
    }

    @Test func repairDescriptionReadsAsOneLine() {
        let repair = Repair(path: "$.count", expected: "Int", found: .init(kind: .string, excerpt: #""42""#), action: .coerced)
        #expect(repair.description == #"$.count: expected Int, found string "42"; coerced"#)
        let missing = Repair(path: "$.x", expected: "Int", found: .init(kind: .missing, excerpt: ""), action: .defaultedBecauseMissing)
        #expect(missing.description == "$.x: expected Int, found missing; defaultedBecauseMissing")
    }

    @Test func longExcerptsAreCut() throws {
        let long = String(repeating: "x", count: 100)
        let result = try report(OptionalBox<Int>.self, #"{"value":"\#(long)"}"#)
        let excerpt = try #require(result.repairs.first?.found.excerpt)
        #expect(excerpt.hasSuffix("…"))
        #expect(excerpt.count <= 41)
    }
}
