import BackstopTestSupport
import BadBackend
import Foundation
import Testing

// BadBackend, like Hummingbird 2, needs macOS 14 or iOS 17: each test says so.
@Suite("Dirty data on demand")
struct DirtyDataTests {
    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Numbers and flags as strings")
    func numbersAsStrings() async throws {
        try await withBackend { _, url in
            let product = try await HTTP.fetch(url, "/scenarios/numbers-as-strings/b/products/1")
            #expect(
                product.text
                    == #"{"code":200,"msg":"OK","data":{"id":"1","name":"iPhone 17","price":"999.5","inStock":"true","stock":"12","category":"phone","tags":["new","5g"]}}"#
            )
            let group = try await HTTP.fetch(url, "/scenarios/numbers-as-strings/b/study-groups/7")
            #expect(group.value(at: "data.id") as? String == "7")
            #expect(group.value(at: "data.memberCount") as? String == "3")
            #expect(group.value(at: "data.members.0.id") as? String == "1")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("A field null and another missing")
    func nullsAndMissingFields() async throws {
        try await withBackend { _, url in
            let product = try await HTTP.fetch(url, "/scenarios/nulls-and-missing-fields/b/products/1")
            #expect(
                product.text
                    == #"{"code":200,"msg":"OK","data":{"id":1,"name":"iPhone 17","price":null,"inStock":true,"category":"phone","tags":["new","5g"]}}"#
            )
            let group = try await HTTP.fetch(url, "/scenarios/nulls-and-missing-fields/a/study-groups/7")
            #expect(group.value(at: "result.data.teamCode") is NSNull)
            #expect(group.value(at: "result.data.memberCount") == nil)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("Enum values no client knows")
    func unknownEnumValues() async throws {
        try await withBackend { _, url in
            let product = try await HTTP.fetch(url, "/scenarios/unknown-enum-values/b/products/2")
            #expect(product.value(at: "data.category") as? String == "hologram")
            let group = try await HTTP.fetch(url, "/scenarios/unknown-enum-values/b/study-groups/7")
            #expect(group.value(at: "data.role") as? String == "co-owner")
            let clean = try await HTTP.fetch(url, "/b/study-groups/7")
            #expect(clean.value(at: "data.role") as? String == "owner")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, *)
    @Test("One broken array element among good ones")
    func brokenArrayElement() async throws {
        try await withBackend { _, url in
            let list = try await HTTP.fetch(url, "/scenarios/broken-array-element/c/products")
            #expect(list.value(at: "result.data.0.id") as? Int == 1)
            #expect(list.value(at: "result.data.1.id") as? String == "two?")
            #expect(list.value(at: "result.data.1.name") is NSNull)
            #expect(list.value(at: "result.data.2.id") as? Int == 3)
            let product = try await HTTP.fetch(url, "/scenarios/broken-array-element/b/products/1")
            #expect(product.value(at: "data.tags.0") as? String == "new")
            #expect(product.value(at: "data.tags.1.oops") as? Bool == true)
            let group = try await HTTP.fetch(url, "/scenarios/broken-array-element/b/study-groups/7")
            #expect(group.value(at: "data.members.1.nickname") as? Int == 42)
        }
    }
}
