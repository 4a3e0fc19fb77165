import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation
import Testing

@Suite("Responses repaired against their operation's schema")
struct OpenAPIRepairTests {
    static let clean = #"{"id":7,"name":"Swift","members":[{"id":1,"role":"admin"}],"createdAt":"2024-05-01T10:00:00Z","category":"food"}"#

    /// Repairs `body` as `getGroup`'s 200.
    static func repair(_ body: String, _ contract: OpenAPIContract? = nil, operation: String = "getGroup") throws -> RepairedBody {
        let contract = try contract ?? Documents.contract()
        return try contract.repair(Data(body.utf8), operationID: operation, status: 200, contentType: "application/json; charset=utf-8")
    }

    /// The repaired body as JSON, to compare by value.
    static func json(_ repaired: RepairedBody) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: repaired.body) as? NSDictionary)
    }

    static func expected(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test func aCleanBodyIsHandedOnAsTheSameBytesWithNoRepairs() throws {
        let body = Data(Self.clean.utf8)
        let repaired = try Documents.contract().repair(body, operationID: "getGroup", status: 200, contentType: "application/json")
        #expect(repaired.body == body)
        #expect(repaired.repairs.isEmpty)
        #expect(repaired.undescribed == nil)
        // Pretty-printed, keys in another order, unknown members and an optional null: still clean.
        let pretty = """
            {
              "createdAt": "2024-05-01T10:00:00+02:00", "extra": {"anything": [1, "x", null]},
              "members": [], "name": "Swift", "id": 7, "nickname": null, "score": 4.5, "active": false
            }
            """
        let same = try Self.repair(pretty)
        #expect(same.body == Data(pretty.utf8))
        #expect(same.repairs.isEmpty)
    }

    @Test func aNumberWrittenAsAStringBecomesTheNumber() throws {
        let repaired = try Self.repair(Self.clean.replacingOccurrences(of: #""id":7"#, with: #""id":"7""#))
        #expect(
            repaired.repairs == [Repair(path: "$.id", expected: "integer", found: .init(kind: .string, excerpt: #""7""#), action: .coerced)]
        )
        #expect(try Self.json(repaired) == Self.expected(Self.clean))
        #expect(String(decoding: repaired.body, as: UTF8.self) == Self.clean)
    }

    @Test func booleansAndStringsAreCoercedOnlyWhereThePolicySays() throws {
        let body = Self.clean.replacingOccurrences(of: #""name":"Swift""#, with: #""name":42,"active":1,"score":"2.5""#)
        let repaired = try Self.repair(body)
        #expect(
            repaired.repairs == [
                Repair(path: "$.name", expected: "string", found: .init(kind: .number, excerpt: "42"), action: .coerced),
                Repair(path: "$.active", expected: "boolean", found: .init(kind: .number, excerpt: "1"), action: .coerced),
                Repair(path: "$.score", expected: "number", found: .init(kind: .string, excerpt: #""2.5""#), action: .coerced),
            ])
        #expect(
            try Self.json(repaired)
                == Self.expected(Self.clean.replacingOccurrences(of: #""name":"Swift""#, with: #""name":"42","active":true,"score":2.5"#)))

        // Without the bool coercion, the optional `active` is given up on instead.
        let policy = DecodingPolicy.lenient.subtracting(.boolsFromNumbersAndStrings)
        let strictBools = try Self.repair(body, Documents.contract(policy: policy))
        #expect(strictBools.repairs.map(\.action) == [.coerced, .setToNil, .coerced])
        #expect(strictBools.repairs[1].path == "$.active")
        #expect((try Self.json(strictBools))["active"] == nil)
    }

    @Test func missingAndNullRequiredPropertiesTakeTheSchemasDefaultThenTheTypes() throws {
        let body = #"{"id":7,"name":null,"createdAt":"2024-05-01T10:00:00Z"}"#
        let repaired = try Self.repair(body)
        #expect(
            repaired.repairs == [
                Repair(path: "$.name", expected: "string", found: .init(kind: .null, excerpt: "null"), action: .defaultedBecauseNull),
                Repair(path: "$.members", expected: "array", found: .init(kind: .missing, excerpt: ""), action: .defaultedBecauseMissing),
            ])
        #expect(try Self.json(repaired) == Self.expected(#"{"id":7,"name":"","createdAt":"2024-05-01T10:00:00Z","members":[]}"#))

        // A required property with a `default` in the schema takes that.
        let levelled = Documents.yaml30.replacingOccurrences(
            of: "required: [id, name, members, createdAt]", with: "required: [id, name, members, createdAt, level]")
        let withDefault = try Self.repair(Self.clean, Documents.contract(levelled))
        #expect(withDefault.repairs.map(\.path) == ["$.level"])
        #expect((try Self.json(withDefault))["level"] as? Int == 3)

        // A strict policy defaults nothing: the call fails naming the path.
        #expect {
            try Self.repair(body, Documents.contract(policy: .strict))
        } throws: { error in
            guard let failure = error as? DecodingFailure else { return false }
            return failure.part == .payload && failure.path == "$.name" && failure.problem == .null
        }
    }

    @Test func anUnknownEnumValueTakesTheFallbackNamedInEachOfThreeWays() throws {
        // The enum's own `other` member.
        let own = try Self.repair(Self.clean.replacingOccurrences(of: #""category":"food""#, with: #""category":"snacks""#))
        #expect(
            own.repairs == [
                Repair(
                    path: "$.category", expected: "Category", found: .init(kind: .string, excerpt: #""snacks""#), action: .fellBack,
                    reason: #""snacks" is not a known case; used other"#)
            ])
        #expect((try Self.json(own))["category"] as? String == "other")

        // The document's `x-backstop-fallback`.
        let tier = try Self.repair(Self.clean.replacingOccurrences(of: #""category":"food""#, with: #""tier":"platinum""#))
        #expect(tier.repairs.map(\.action) == [.fellBack])
        #expect((try Self.json(tier))["tier"] as? String == "bronze")

        // The app's, by the component's name.
        let body = Self.clean.replacingOccurrences(of: #""role":"admin""#, with: #""role":"owner""#)
        let app = try Self.repair(body, Documents.contract(enumFallbacks: ["Role": "member"]))
        #expect(app.repairs.map(\.path) == ["$.members[0].role"])
        #expect(app.repairs.map(\.expected) == ["Role"])
        #expect(String(decoding: app.body, as: UTF8.self).contains(#"{"id":1,"role":"member"}"#))
    }

    @Test func anUnknownEnumValueWithoutFallbackIsNilledThenDroppedThenFails() throws {
        // No fallback for Role: the member is dropped from its list.
        let body = Self.clean.replacingOccurrences(
            of: #"[{"id":1,"role":"admin"}]"#, with: #"[{"id":1,"role":"admin"},{"id":2,"role":"owner"},{"id":"3","role":"member"}]"#)
        let repaired = try Self.repair(body)
        #expect(repaired.repairs.map(\.path) == ["$.members[1]", "$.members[2].id"])
        #expect(repaired.repairs.map(\.action) == [.dropped, .coerced])
        #expect(repaired.repairs[0].expected == "Member")
        #expect(repaired.repairs[0].reason == #"$.members[1].role: "owner" is not a value of Role"#)
        #expect(String(decoding: repaired.body, as: UTF8.self).contains(#""members":[{"id":1,"role":"admin"},{"id":3,"role":"member"}]"#))

        // An optional property without fallback: removed, so the generated code reads nil.
        let noCategoryFallback = Documents.yaml30.replacingOccurrences(of: "enum: [food, drink, other]", with: "enum: [food, drink]")
        let nilled = try Self.repair(
            Self.clean.replacingOccurrences(of: #""category":"food""#, with: #""category":"snacks""#),
            Documents.contract(noCategoryFallback))
        #expect(nilled.repairs.map(\.action) == [.setToNil])
        #expect((try Self.json(nilled))["category"] == nil)

        // Required, not in a list, no fallback: the operation fails with the path.
        #expect {
            try Self.repair(#"{"id":1,"role":"owner"}"#, operation: "getMember")
        } throws: { error in
            guard let failure = error as? DecodingFailure else { return false }
            return failure.part == .payload && failure.path == "$.role" && failure.problem == .invalidValue
                && failure.detail == #""owner" is not a value of Role"#
        }
        let strictLists = try Documents.contract(policy: DecodingPolicy.lenient.subtracting(.dropInvalidElements))
        #expect {
            try Self.repair(body, strictLists)
        } throws: { error in
            guard let failure = error as? DecodingFailure else { return false }
            return failure.path == "$.members[1].role" && failure.problem == .invalidValue
        }
    }

    @Test func nestedContainersThatCloseTogetherAreCopiedWhole() throws {
        // The last member's list is copied as written while its neighbour is repaired: the copy
        // ends at its own bracket, not at the brackets that close after it.
        let body =
            #"{"code":"200","data":[{"id":1,"name":"a","createdAt":"2024-05-01T10:00:00Z","members":[{"id":1,"role":"admin"}]},{"id":2,"name":"b","createdAt":"2024-05-01T10:00:00Z","members":[{"id":2,"role":"owner"}]}]}"#
        let repaired = try Documents.contract().repair(Data(body.utf8), operationID: "listGroups", status: 200, contentType: nil)
        #expect(repaired.repairs.map(\.path) == ["$.code", "$.data[1].members[0]"])
        #expect(
            String(decoding: repaired.body, as: UTF8.self)
                == #"{"code":200,"data":[{"id":1,"name":"a","createdAt":"2024-05-01T10:00:00Z","members":[{"id":1,"role":"admin"}]},{"id":2,"name":"b","createdAt":"2024-05-01T10:00:00Z","members":[]}]}"#
        )
        let nested = #"{"id":"7","name":"n","createdAt":"2024-05-01T10:00:00Z","members":[],"extra":{"a":{"b":[1,[2]]}}}"#
        #expect(
            String(decoding: try Self.repair(nested).body, as: UTF8.self)
                == #"{"id":7,"name":"n","createdAt":"2024-05-01T10:00:00Z","members":[],"extra":{"a":{"b":[1,[2]]}}}"#)
    }

    @Test(arguments: [
        ("2024-05-01 10:00:00", "2024-05-01T10:00:00Z"),
        ("2024-05-01T10:00:00", "2024-05-01T10:00:00Z"),
        ("2024-05-01T10:00:00.123Z", "2024-05-01T10:00:00Z"),
        ("2024-05-01t10:00:00+0200", "2024-05-01T10:00:00+02:00"),
        ("2024-05-01", "2024-05-01T00:00:00Z"),
        ("1714557600", "2024-05-01T10:00:00Z"),
    ])
    func dateTimesInCommonWrongShapesBecomeRFC3339(written: String, repaired: String) throws {
        let body = Self.clean.replacingOccurrences(of: "2024-05-01T10:00:00Z", with: written)
        let result = try Self.repair(body)
        #expect((try Self.json(result))["createdAt"] as? String == repaired)
        #expect(
            result.repairs == [
                Repair(
                    path: "$.createdAt", expected: "string", found: .init(kind: .string, excerpt: "\"\(written)\""), action: .coerced,
                    reason: "written as RFC 3339")
            ])
    }

    @Test func epochSecondsAsANumberBecomeRFC3339() throws {
        let body = Self.clean.replacingOccurrences(of: #""2024-05-01T10:00:00Z""#, with: "1714557600")
        let result = try Self.repair(body)
        #expect((try Self.json(result))["createdAt"] as? String == "2024-05-01T10:00:00Z")
        #expect(result.repairs.map(\.reason) == ["epoch seconds written as RFC 3339"])
        #expect {
            try Self.repair(Self.clean.replacingOccurrences(of: "2024-05-01T10:00:00Z", with: "next tuesday"))
        } throws: { error in
            (error as? DecodingFailure)?.path == "$.createdAt"
        }
    }

    @Test func byteLevelDirtIsRepairedAndReportedAsTheDecoderReportsIt() throws {
        let body = #"{"id":7,"name":"tab\#there","members":[{"id":1,"role":"admin"},],"createdAt":"2024-05-01T10:00:00Z"}"#
        let repaired = try Self.repair(body)
        #expect(repaired.repairs.map(\.action) == [.acceptedControlCharacter, .ignoredTrailingComma])
        #expect(repaired.repairs.map(\.path) == ["$.name", "$.members"])
        #expect((try Self.json(repaired))["name"] as? String == "tab\there")
        #expect(String(decoding: repaired.body, as: UTF8.self).contains(#""name":"tab\there""#))
        // The same with a strict policy is not JSON at all.
        #expect {
            try Self.repair(body, Documents.contract(policy: .strict))
        } throws: { error in
            (error as? DecodingFailure)?.problem == .notJSON
        }
    }

    @Test func aResponseTheDocumentDoesNotDescribeIsHandedOnUntouched() throws {
        let contract = try Documents.contract()
        let body = Data(#"{"id":"not even close"}"#.utf8)
        let unknown = try contract.repair(body, operationID: "deleteEverything", status: 200, contentType: "application/json")
        #expect(unknown.body == body && unknown.repairs.isEmpty)
        #expect(unknown.undescribed == "the document has no operation deleteEverything")
        let status = try contract.repair(body, operationID: "getGroup", status: 500, contentType: "application/json")
        #expect(status.undescribed == "the document describes no response 500 of getGroup")
        let html = try contract.repair(body, operationID: "getGroup", status: 200, contentType: "text/html")
        #expect(html.undescribed == "the response 200 of getGroup is text/html, not JSON")
        let noBody = try contract.repair(Data(), operationID: "getGroup", status: 404, contentType: nil)
        #expect(noBody.undescribed == nil && noBody.repairs.isEmpty)
    }

    @Test func statusRangesAndEnvelopesAreFollowed() throws {
        let contract = try Documents.contract()
        let body = #"{"code":"200","data":[\#(Self.clean),{"id":8}]}"#
        let repaired = try contract.repair(Data(body.utf8), operationID: "listGroups", status: 201, contentType: nil)
        #expect(repaired.repairs.map(\.path) == ["$.code", "$.data[1]"])
        #expect(repaired.repairs.map(\.action) == [.coerced, .dropped])
        #expect(repaired.repairs[1].reason == "$.data[1].createdAt: expected string, which has no default")
        #expect(String(decoding: repaired.body, as: UTF8.self) == #"{"code":200,"data":[\#(Self.clean)]}"#)
    }

    @Test func allOfOneOfAnyOfAndNullableTypesOf31() throws {
        let contract = try Documents.contract(Documents.json31)
        func repair(_ body: String) throws -> RepairedBody {
            try contract.repair(Data(body.utf8), operationID: "getShapes", status: 200, contentType: "application/json")
        }
        let clean = #"{"sized":{"name":"a","size":2},"shape":{"side":3},"either":"x","note":null}"#
        #expect(try repair(clean).body == Data(clean.utf8))
        let dirty = #"{"sized":{"size":"2"},"shape":{"radius":"1.5"},"either":true}"#
        let repaired = try repair(dirty)
        #expect(repaired.repairs.map(\.path) == ["$.sized.size", "$.sized.name", "$.shape.radius", "$.either"])
        #expect(repaired.repairs.map(\.action) == [.coerced, .defaultedBecauseMissing, .coerced, .setToNil])
        #expect(String(decoding: repaired.body, as: UTF8.self) == #"{"sized":{"size":2,"name":""},"shape":{"radius":1.5}}"#)
    }

    @Test func aFailuresExcerptIsOneLineOfAtMost120CharactersEscapesIncluded() throws {
        // Found by the openapi fuzzer: each NUL is escaped as five characters, after the cut.
        let body = "{" + String(repeating: "\u{0}", count: 200) + "}\n\n" + String(repeating: "x", count: 300)
        #expect {
            try Self.repair(body)
        } throws: { error in
            guard let failure = error as? DecodingFailure else { return false }
            return failure.problem == .notJSON && failure.excerpt.count <= 121 && failure.excerpt.hasPrefix(#"{\u{0}\u{0}"#)
                && !failure.excerpt.contains("\n")
        }
    }

    @Test func aBodyThatIsNotJSONOrEmptyFailsAsTheBody() throws {
        #expect {
            try Self.repair("<html>")
        } throws: { error in
            guard let failure = error as? DecodingFailure else { return false }
            return failure.part == .body && failure.problem == .notJSON && failure.excerpt == "<html>"
        }
        #expect {
            try Self.repair("  ")
        } throws: { error in
            (error as? DecodingFailure)?.problem == .emptyBody
        }
    }
}
