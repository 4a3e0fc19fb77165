import BackstopJSON
import Foundation
import Testing

/// The property wrappers exist for models that must also decode with Foundation's
/// `JSONDecoder`, so most of these tests use Foundation's decoder on purpose.
@Suite struct PropertyWrapperTests {
    struct Product: Decodable {
        @LenientScalar var id: Int
        @LenientScalar var price: Double
        @LenientScalar var inStock: Bool
        @LenientScalar var sku: String
        @LossyArray var variants: [Variant]
        @DefaultIfAbsent var tags: [String]
    }

    struct Variant: Decodable, Equatable {
        let id: Int
        let name: String
    }

    private func foundationDecoder(reporting log: RepairLog) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[.repairReporter] = log
        return decoder
    }

    @Test func foundationDecoderGetsCoercionsAndDefaults() throws {
        let json =
            #"{"id":"42","price":"12.5","inStock":1,"sku":1234,"variants":[{"id":1,"name":"S"},{"id":"x","name":"M"},{"id":3,"name":"L"}]}"#
        let log = RepairLog()
        let product = try foundationDecoder(reporting: log).decode(Product.self, from: Data(json.utf8))

        #expect(product.id == 42)
        #expect(product.price == 12.5)
        #expect(product.inStock == true)
        #expect(product.sku == "1234")
        #expect(product.variants == [Variant(id: 1, name: "S"), Variant(id: 3, name: "L")])
        #expect(product.tags == [])

        let byPath = Dictionary(log.repairs.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byPath["$.id"]?.action == .coerced)
        #expect(byPath["$.id"]?.found == Repair.Found(kind: .string, excerpt: "\"42\""))
        #expect(byPath["$.price"]?.action == .coerced)
        #expect(byPath["$.inStock"]?.action == .coerced)
        #expect(byPath["$.sku"]?.action == .coerced)
        #expect(byPath["$.variants[1]"]?.action == .dropped)
        #expect(byPath["$.tags"]?.action == .defaultedBecauseMissing)
        #expect(byPath["$.tags"]?.found.kind == .missing)
        #expect(log.repairs.count == 6)
    }

    @Test func missingAndNullAreToldApart() throws {
        let json = #"{"id":null,"inStock":true,"sku":"A","variants":[],"tags":null}"#
        let log = RepairLog()
        let product = try foundationDecoder(reporting: log).decode(Product.self, from: Data(json.utf8))

        #expect(product.id == 0)
        #expect(product.price == 0)
        #expect(product.tags == [])
        let actions = Dictionary(log.repairs.map { ($0.path, $0.action) }, uniquingKeysWith: { first, _ in first })
        #expect(actions["$.id"] == .defaultedBecauseNull)
        #expect(actions["$.price"] == .defaultedBecauseMissing)
        #expect(actions["$.tags"] == .defaultedBecauseNull)
    }

    @Test func uncoercibleValueStaysAnError() {
        let json = #"{"id":"forty-two","price":1,"inStock":true,"sku":"A","variants":[]}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Product.self, from: Data(json.utf8))
        }
    }

    @Test func cleanDataReportsNothing() throws {
        let json = #"{"id":1,"price":2.5,"inStock":false,"sku":"A","variants":[{"id":1,"name":"S"}],"tags":["new"]}"#
        let log = RepairLog()
        let product = try foundationDecoder(reporting: log).decode(Product.self, from: Data(json.utf8))
        #expect(product.tags == ["new"])
        #expect(log.repairs.isEmpty)
    }

    @Test func withoutReporterTheWrappersStillRepair() throws {
        let json = #"{"id":"7","price":"1","inStock":"false","sku":"A","variants":[1]}"#
        let product = try JSONDecoder().decode(Product.self, from: Data(json.utf8))
        #expect(product.id == 7)
        #expect(product.inStock == false)
        #expect(product.variants.isEmpty)
    }

    @Test func resilientDecoderCollectsWrapperRepairsInItsReport() throws {
        let json = #"{"id":"42","price":1,"inStock":true,"sku":"A","variants":[{"id":1,"name":"S"},{"id":"two","name":"M"}]}"#
        let report = try ResilientJSONDecoder().decodeWithReport(Product.self, from: Data(json.utf8))
        #expect(report.value.id == 42)
        #expect(report.value.variants == [Variant(id: 1, name: "S")])
        let actions = report.repairs.map { "\($0.path) \($0.action)" }
        #expect(actions.contains("$.id coerced"))
        #expect(actions.contains("$.variants[1] dropped"))
        #expect(actions.contains("$.tags defaultedBecauseMissing"))
    }
}
