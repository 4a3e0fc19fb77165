// libFuzzer entry for the decoder: any bytes decoded into models that use every kind of
// container, scalar, strategy and repair, in both policies.
import BackstopJSON
import Foundation

private enum Kind: String, Decodable, UnknownCaseRepresentable {
    case small, large, unknown
    static var unknownCase: Kind { .unknown }
}

private struct Item: Decodable {
    let id: Int
    let name: String
    let price: Double?
    let inStock: Bool
    let tags: [String]
    let kind: Kind
    let ratio: Float?
    let small: UInt8?
    let big: Int64?
    let amount: Decimal?
}

private struct Envelope: Decodable {
    let code: Int
    let msg: String?
    let data: Payload?
    let items: [Item]?
    let index: [String: Int]?
    let byNumber: [Int: String]?
    let when: Date?
    let blob: Data?
    let link: URL?
    let any: JSONValue?
    let set: Set<String>?

    struct Payload: Decodable {
        let items: [Item]
        let next: String?
        @LenientScalar var total: Int
        @LossyArray var extras: [Item]
        @DefaultIfAbsent var notes: [String]
    }
}

private struct Manual: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StringKey.self)
        for key in container.allKeys.prefix(8) {
            _ = try? container.decode(JSONValue.self, forKey: key)
            _ = try? container.nestedContainer(keyedBy: StringKey.self, forKey: key).allKeys
            if var list = try? container.nestedUnkeyedContainer(forKey: key) {
                // A failed decode leaves the index where it was (Foundation's contract), so the
                // loop stops as soon as an element can be read neither way: no input can hang it.
                while !list.isAtEnd {
                    let index = list.currentIndex
                    if (try? list.decode(Int.self)) == nil { _ = try? list.decode(JSONValue.self) }
                    if list.currentIndex == index { break }
                }
            }
            _ = try? container.superDecoder(forKey: key).singleValueContainer().decode(String.self)
        }
        _ = try? container.superDecoder()
    }

    struct StringKey: CodingKey {
        let stringValue: String
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        var intValue: Int? { nil }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    for policy in [DecodingPolicy.strict, .lenient] {
        var decoder = ResilientJSONDecoder(policy: policy)
        _ = try? decoder.decodeWithReport(Envelope.self, from: data)
        _ = try? decoder.decode([Item].self, from: data)
        _ = try? decoder.decode(Manual.self, from: data)
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        _ = try? decoder.decode(Envelope.self, from: data)
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.dataDecodingStrategy = .deferredToData
        _ = try? decoder.decode(Envelope.self, from: data)
    }
    return 0
}
