import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation
import Testing

/// Whatever the contract hands on as clean or repaired, the generated code decodes: each body
/// below is decoded after the repair with models written as swift-openapi-generator writes them.
@Suite("Bodies the contract hands on are bodies the generated code decodes")
struct GeneratedDecodeAgreementTests {
    static let document = """
        openapi: 3.1.0
        info:
          title: Shop
          version: "1"
        paths:
          /tickets/{id}:
            get:
              operationId: getTicket
              responses:
                '200':
                  description: A ticket.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Ticket'
          /wallet:
            get:
              operationId: getWallet
              responses:
                '200':
                  description: The wallet, its methods told apart by their kind.
                  content:
                    application/json:
                      schema:
                        type: array
                        items:
                          $ref: '#/components/schemas/PaymentMethod'
          /methods:
            get:
              operationId: getMethods
              responses:
                '200':
                  description: The same methods, without a discriminator.
                  content:
                    application/json:
                      schema:
                        type: array
                        items:
                          oneOf:
                            - $ref: '#/components/schemas/Card'
                            - $ref: '#/components/schemas/Bank'
          /counter:
            get:
              operationId: getCounter
              responses:
                '200':
                  description: Numbers of each format.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Counter'
        components:
          schemas:
            Ticket:
              type: object
              required: [title, refundable]
              properties:
                title:
                  type: string
                refundable:
                  type: boolean
            PaymentMethod:
              oneOf:
                - $ref: '#/components/schemas/Card'
                - $ref: '#/components/schemas/Bank'
              discriminator:
                propertyName: kind
                mapping:
                  card: '#/components/schemas/Card'
                  bank: '#/components/schemas/Bank'
            Card:
              type: object
              required: [kind, brand, last4, expMonth, expYear, isDefault]
              properties:
                kind:
                  type: string
                brand:
                  type: string
                last4:
                  type: string
                expMonth:
                  type: integer
                  format: int32
                expYear:
                  type: integer
                  format: int32
                isDefault:
                  type: boolean
            Bank:
              type: object
              required: [kind, iban, isDefault]
              properties:
                kind:
                  type: string
                iban:
                  type: string
                isDefault:
                  type: boolean
            Counter:
              type: object
              required: [small, big, ratio]
              properties:
                small:
                  type: integer
                  format: int32
                big:
                  type: integer
                  format: int64
                ratio:
                  type: number
                  format: float
                spare:
                  type: integer
                  format: int32
                samples:
                  type: array
                  items:
                    type: integer
                    format: int32
        """

    // MARK: The generator's models

    struct Ticket: Decodable, Equatable {
        var title: String
        var refundable: Bool
    }

    struct Card: Decodable, Equatable {
        var kind: String
        var brand: String
        var last4: String
        var expMonth: Int32
        var expYear: Int32
        var isDefault: Bool
    }

    struct Bank: Decodable, Equatable {
        var kind: String
        var iban: String
        var isDefault: Bool
    }

    /// A `oneOf` with a discriminator, as the generator decodes it: the kind first, then that case.
    enum PaymentMethod: Decodable, Equatable {
        case card(Card)
        case bank(Bank)

        enum CodingKeys: String, CodingKey { case kind }

        init(from decoder: any Decoder) throws {
            let kind = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .kind)
            switch kind {
            case "card": self = .card(try Card(from: decoder))
            case "bank": self = .bank(try Bank(from: decoder))
            default:
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown kind \(kind)"))
            }
        }
    }

    struct Counter: Decodable, Equatable {
        var small: Int32
        var big: Int64
        var ratio: Float
        var spare: Int32?
        var samples: [Int32]?
    }

    // MARK: Helpers

    static func repair(_ body: String, _ operation: String) throws -> RepairedBody {
        try OpenAPIContract(data: Data(document.utf8)).repair(
            Data(body.utf8), operationID: operation, status: 200, contentType: "application/json")
    }

    static func text(_ repaired: RepairedBody) -> String { String(decoding: repaired.body, as: UTF8.self) }

    static let missing = Repair.Found(kind: .missing, excerpt: "")

    // MARK: Duplicate keys

    @Test func aDuplicateKeyDoesNotHideAMissingRequiredOne() throws {
        // Strict JSON, told by the one pass; an escaped key, told on the tape.
        for body in [#"{"title": "a", "title": "b"}"#, #"{"title": "a", "t\u0069tle": "b"}"#] {
            let repaired = try Self.repair(body, "getTicket")
            #expect(
                repaired.repairs == [
                    Repair(path: "$.refundable", expected: "boolean", found: Self.missing, action: .defaultedBecauseMissing)
                ], "\(body)")
            #expect(try JSONDecoder().decode(Ticket.self, from: repaired.body) == Ticket(title: "a", refundable: false))
        }
        // Every required key present, one of them twice: handed on as it came.
        for body in [#"{"title":"a","title":"b","refundable":true}"#, #"{"title":"a","t\u0069tle":"b","refundable":true}"#] {
            let repaired = try Self.repair(body, "getTicket")
            #expect(repaired.repairs.isEmpty)
            #expect(repaired.body == Data(body.utf8))
        }
    }

    // MARK: Alternatives

    @Test func aDiscriminatorChoosesTheAlternative() throws {
        // A bank with one dirty value: one repair, not a card's four invented ones.
        let repaired = try Self.repair(#"[{"kind":"bank","iban":"DE89","isDefault":"true"}]"#, "getWallet")
        #expect(
            repaired.repairs == [
                Repair(path: "$[0].isDefault", expected: "boolean", found: .init(kind: .string, excerpt: #""true""#), action: .coerced)
            ])
        #expect(Self.text(repaired) == #"[{"kind":"bank","iban":"DE89","isDefault":true}]"#)
        #expect(
            try JSONDecoder().decode([PaymentMethod].self, from: repaired.body)
                == [.bank(Bank(kind: "bank", iban: "DE89", isDefault: true))])
    }

    @Test func aValueThatFitsAnotherAlternativeThanItsDiscriminatorNamesIsNotClean() throws {
        // Fits `Bank` as written, but the generated code reads it as a card.
        let repaired = try Self.repair(#"[{"kind":"card","iban":"DE89","isDefault":true}]"#, "getWallet")
        #expect(repaired.repairs.map(\.path) == ["$[0].brand", "$[0].last4", "$[0].expMonth", "$[0].expYear"])
        #expect(repaired.repairs.map(\.action) == Array(repeating: .defaultedBecauseMissing, count: 4))
        #expect(
            try JSONDecoder().decode([PaymentMethod].self, from: repaired.body)
                == [.card(Card(kind: "card", brand: "", last4: "", expMonth: 0, expYear: 0, isDefault: true))])
    }

    @Test func aKindTheDiscriminatorDoesNotNameIsDroppedAsAnUnknownEnumValueIs() throws {
        let body =
            #"[{"kind":"crypto","address":"bc1q","isDefault":true},{"iban":"DE89","isDefault":false},{"kind":"bank","iban":"DE89","isDefault":false}]"#
        let repaired = try Self.repair(body, "getWallet")
        #expect(repaired.repairs.map(\.path) == ["$[0]", "$[1]"])
        #expect(repaired.repairs.map(\.action) == [.dropped, .dropped])
        #expect(repaired.repairs[0].reason == #"$[0]: "crypto" is not a kind of PaymentMethod"#)
        #expect(Self.text(repaired) == #"[{"kind":"bank","iban":"DE89","isDefault":false}]"#)
        #expect(try JSONDecoder().decode([PaymentMethod].self, from: repaired.body).count == 1)
    }

    @Test func withoutADiscriminatorTheAlternativeWithFewestRepairsIsWritten() throws {
        let repaired = try Self.repair(#"[{"kind":"bank","iban":"DE89","isDefault":"true"}]"#, "getMethods")
        #expect(repaired.repairs.map(\.path) == ["$[0].isDefault"])
        #expect(Self.text(repaired) == #"[{"kind":"bank","iban":"DE89","isDefault":true}]"#)
        // The first alternative still wins a tie, and a clean fit ends the search.
        let card = #"[{"kind":"card","brand":"visa","last4":"4242","expMonth":"1","expYear":2030,"isDefault":false}]"#
        let first = try Self.repair(card, "getMethods")
        #expect(first.repairs.map(\.path) == ["$[0].expMonth"])
        #expect(try JSONDecoder().decode([Card].self, from: first.body).first?.expMonth == 1)
    }

    // MARK: Formats

    @Test func anInt32OrFloatThatDoesNotFitIsAValueOfTheWrongType() throws {
        // Fits: the largest Int32 (ten digits, so told on the tape), an Int64 past Int32.
        let clean = #"{"small":2147483647,"big":3000000000,"ratio":3.4e38,"spare":-2147483648}"#
        let fits = try Self.repair(clean, "getCounter")
        #expect(fits.repairs.isEmpty && fits.body == Data(clean.utf8))
        #expect(try JSONDecoder().decode(Counter.self, from: fits.body).small == Int32.max)

        // Past Int32: an optional property is removed, a list element dropped, as any other value of the wrong type.
        let optional = try Self.repair(#"{"small":1,"big":1,"ratio":1.5,"spare":2147483648,"samples":[1,"2",4294967296,3]}"#, "getCounter")
        #expect(optional.repairs.map(\.path) == ["$.spare", "$.samples[1]", "$.samples[2]"])
        #expect(optional.repairs.map(\.action) == [.setToNil, .coerced, .dropped])
        #expect(
            try JSONDecoder().decode(Counter.self, from: optional.body)
                == Counter(small: 1, big: 1, ratio: 1.5, spare: nil, samples: [1, 2, 3]))

        // A required one fails the call, naming the path, whether it came as a number or a string.
        for (body, path) in [
            (#"{"small":2147483648,"ratio":1}"#, "$.small"), (#"{"small":"-2147483649","ratio":1}"#, "$.small"),
            (#"{"small":1,"ratio":1e39}"#, "$.ratio"), (#"{"small":1,"ratio":"3.5e38"}"#, "$.ratio"),
            (#"{"small":1,"ratio":1e-50}"#, "$.ratio"),
        ] {
            #expect("\(body)") {
                try Self.repair(body, "getCounter")
            } throws: { error in
                guard let failure = error as? DecodingFailure else { return false }
                return failure.path == path && failure.problem == .invalidValue
            }
        }
    }
}
