import BackstopJSON
import Foundation
import Testing

// The code of BackstopJSON's DocC catalogue and of its symbols' comments, as written there.

func decodeWithAReport(from data: Data) throws -> DecodingReport<User> {
    let decoder = ResilientJSONDecoder()
    let report = try decoder.decodeWithReport(User.self, from: data)
    print(report.repairs)
    return report
}

func chooseTheRepairs() -> [DecodingPolicy] {
    var decoder = ResilientJSONDecoder()
    var chosen: [DecodingPolicy] = []
    decoder.policy = DecodingPolicy.strict.union(.replaceInvalidUnicode)
    chosen.append(decoder.policy)
    decoder.policy = DecodingPolicy.strict.union(.allowControlCharactersInStrings)
    chosen.append(decoder.policy)
    decoder.policy = DecodingPolicy.lenient.subtracting(.allowNonFiniteNumbers)
    chosen.append(decoder.policy)
    decoder.policy = DecodingPolicy.lenient.subtracting(.dropInvalidElements)
    chosen.append(decoder.policy)
    return chosen
}

func decodeAndReport(from data: Data) throws -> User {
    let decoder = ResilientJSONDecoder()
    let user = try decoder.decode(User.self, from: data)
    let report = try decoder.decodeWithReport(User.self, from: data)
    print(report.repairs)
    return user
}

enum Beverage: String, Codable, UnknownCaseRepresentable {
    case coffee, tea, unknown
    static var unknownCase: Beverage { .unknown }
}

@Test("BackstopJSON's examples: a report, policies, an unknown case")
func backstopJSONExamples() throws {
    let report = try decodeWithAReport(from: Data(#"{"id": 7, "name": null}"#.utf8))
    #expect(report.value.name == "")
    #expect(report.repairs.map(\.path) == ["$.name"])
    #expect(!chooseTheRepairs()[3].contains(.dropInvalidElements))
    #expect(try decodeAndReport(from: Data(#"{"id": "8", "name": "Ada"}"#.utf8)).id == 8)
    #expect(try JSONDecoder().decode([Beverage].self, from: Data(#"["tea", "mate"]"#.utf8)) == [.tea, .unknown])
}
