import BackstopJSON
import Foundation
import Testing

/// A repair keeps its texts as what they are made of and writes them out when read. These
/// pin every kind of repair to the text it read as when each was written out at once, and
/// check that such a repair is a plain value: equal to, and hashed as, one built from text.
@Suite struct RepairTextTests {
    enum Beverage: String, Decodable, UnknownCaseRepresentable {
        case coffee, tea, unknown
        static var unknownCase: Beverage { .unknown }
    }

    enum SizeCode: Int, Decodable, UnknownCaseRepresentable {
        case small = 1
        case other = 0
        static var unknownCase: SizeCode { .other }
    }

    struct Item: Decodable {
        var id: Int
        var name: String
    }

    /// Refuses negative numbers with an error of its own, not a `DecodingError`.
    struct Picky: Decodable {
        struct Refusal: Error, CustomStringConvertible { var description: String { "picky refuses" } }
        init(from decoder: any Decoder) throws {
            if try decoder.singleValueContainer().decode(Int.self) < 0 { throw Refusal() }
        }
    }

    struct Shelf: Decodable {
        var count: Int
        var name: String
        var size: Int
        var note: Int?
        var scores: [Int]
        var items: [Item]
        var tags: [String: Int]
        var drink: Beverage
        var code: SizeCode
        var odd: [String: Int]
        var picky: [Picky]
        var trail: [Int]
        @LossyArray var lossy: [Int]
        @DefaultIfAbsent var absent: [String]
        @LenientScalar var scalar: Double
    }

    struct Wrapped: Decodable {
        @LossyArray var lossy: [Int]
        @DefaultIfAbsent var absent: [String]
        @LenientScalar var scalar: Double
        var drink: Beverage
    }

    typealias Texts = (path: String, expected: String, kind: JSONKind, excerpt: String, action: Repair.Action, reason: String?)

    static let shelf = #"""
        {"count":"42","size":null,"note":"x","scores":[1,null,"x",3],"items":[{"id":1,"name":"a"},{"id":"2","name":{}}],
         "tags":{"a":1,"b":"x"},"drink":"matcha","code":7,"odd":{"a b":"1"},"picky":[1,-1],"trail":[1,2,],
         "lossy":[1,"x"],"scalar":"2.5"}
        """#

    /// What `shelf` repairs, as the decoder wrote it before repairs kept their texts unwritten.
    static let shelfRepairs: [Texts] = [
        ("$.trail", "array", .array, ",", .ignoredTrailingComma, nil),
        ("$.count", "Int", .string, #""42""#, .coerced, nil),
        ("$.name", "String", .missing, "", .defaultedBecauseMissing, nil),
        ("$.size", "Int", .null, "null", .defaultedBecauseNull, nil),
        ("$.note", "Int", .string, #""x""#, .setToNil, "$.note: Expected to decode Int but found a string instead."),
        ("$.scores[1]", "Int", .null, "null", .dropped, "$.scores[1]: Cannot get value of type Int -- found null value instead"),
        ("$.scores[2]", "Int", .string, #""x""#, .dropped, "$.scores[2]: Expected to decode Int but found a string instead."),
        (
            "$.items[1]", "Item", .object, #"{"id":"2","name":{}}"#, .dropped,
            "$.items[1].name: Expected to decode String but found a dictionary instead."
        ),
        ("$.tags.b", "Int", .string, #""x""#, .dropped, "$.tags.b: Expected to decode Int but found a string instead."),
        ("$.drink", "Beverage", .string, #""matcha""#, .fellBack, #""matcha" is not a known case; used unknown"#),
        ("$.code", "SizeCode", .number, "7", .fellBack, "7 is not a known case; used other"),
        ("$.odd['a b']", "Int", .string, #""1""#, .coerced, nil),
        ("$.picky[1]", "Picky", .number, "-1", .dropped, "picky refuses"),
        ("$.lossy[1]", "Int", .array, "element 1", .dropped, "$.lossy[1]: Expected to decode Int but found a string instead."),
        ("$.absent", "Array<String>", .missing, "", .defaultedBecauseMissing, nil),
        ("$.scalar", "Double", .string, #""2.5""#, .coerced, nil),
    ]

    private func plain(_ texts: [Texts]) -> [Repair] {
        texts.map {
            Repair(
                path: $0.path, expected: $0.expected, found: .init(kind: $0.kind, excerpt: $0.excerpt), action: $0.action, reason: $0.reason
            )
        }
    }

    private func expectReads(_ repairs: [Repair], as texts: [Texts], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(repairs.count == texts.count, sourceLocation: sourceLocation)
        for (repair, texts) in zip(repairs, texts) {
            #expect(repair.path == texts.path, sourceLocation: sourceLocation)
            #expect(repair.expected == texts.expected, sourceLocation: sourceLocation)
            #expect(repair.found.kind == texts.kind, sourceLocation: sourceLocation)
            #expect(repair.found.excerpt == texts.excerpt, sourceLocation: sourceLocation)
            #expect(repair.action == texts.action, sourceLocation: sourceLocation)
            #expect(repair.reason == texts.reason, sourceLocation: sourceLocation)
        }
    }

    private func shelfRepairs() throws -> [Repair] {
        try ResilientJSONDecoder.lenient.decodeWithReport(Shelf.self, from: Data(Self.shelf.utf8)).repairs
    }

    @Test func everyKindOfRepairReadsAsItDid() throws {
        let repairs = try shelfRepairs()
        expectReads(repairs, as: Self.shelfRepairs)
        #expect(repairs == plain(Self.shelfRepairs))
        #expect(repairs.map(\.description) == plain(Self.shelfRepairs).map(\.description))
    }

    @Test func repairsMadeUnderAnotherDecoderReadAsTheyDid() throws {
        let log = RepairLog()
        let decoder = JSONDecoder()
        decoder.userInfo[.repairReporter] = log
        _ = try decoder.decode([Wrapped].self, from: Data(#"[{"lossy":[1,"x"],"scalar":"2.5","drink":"matcha"}]"#.utf8))
        let texts: [Texts] = [
            ("$[0].lossy[1]", "Int", .array, "element 1", .dropped, "$[0].lossy[1]: Expected to decode Int but found a string instead."),
            ("$[0].absent", "Array<String>", .missing, "", .defaultedBecauseMissing, nil),
            ("$[0].scalar", "Double", .string, #""2.5""#, .coerced, nil),
            ("$[0].drink", "Beverage", .string, #""matcha""#, .fellBack, #""matcha" is not a known case; used unknown"#),
        ]
        expectReads(log.repairs, as: texts)
        #expect(log.repairs == plain(texts))
    }

    @Test func repairsHashAsTheTextsTheyReadAs() throws {
        let repairs = try shelfRepairs()
        #expect(Set(repairs) == Set(plain(Self.shelfRepairs)))
        #expect(Set(repairs + plain(Self.shelfRepairs)).count == Self.shelfRepairs.count)
    }

    @Test func settingATextChangesOnlyThatCopy() throws {
        let original = try #require(try shelfRepairs().first { $0.path == "$.scores[1]" })
        var changed = original
        changed.path = "$.elsewhere"
        changed.expected = "Other"
        changed.found.excerpt = "nothing"
        changed.reason = nil
        #expect(changed == Repair(path: "$.elsewhere", expected: "Other", found: .init(kind: .null, excerpt: "nothing"), action: .dropped))
        #expect(original == plain([Self.shelfRepairs[5]])[0])
    }

    @Test func textsReadTheSameFromManyTasks() async throws {
        let repairs = try shelfRepairs()
        let readings = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { repairs.map(\.description) } }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(readings.count == 8)
        #expect(readings.allSatisfy { $0 == plain(Self.shelfRepairs).map(\.description) })
    }
}
