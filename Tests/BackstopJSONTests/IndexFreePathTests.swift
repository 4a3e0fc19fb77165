import BackstopJSON
import Foundation
import Testing

/// Paths without array positions, as the contract-drift report groups repairs: written from the
/// decoder's path components, or from a path's text, they read the same.
@Suite struct IndexFreePathTests {
    struct Member: Decodable {
        var id: Int
        var tags: [Int]
    }

    struct Group: Decodable {
        var members: [Member]
        var scores: [String: Int]
    }

    @Test(arguments: [
        ("$", "$"),
        ("$.data[17].id", "$.data[*].id"),
        ("$[0][12][3]", "$[*][*][*]"),
        ("$.a[].b", "$.a[].b"),
        ("$.a[x1].b", "$.a[x1].b"),
        ("$['odd[3] key'][4]", "$['odd[3] key'][*]"),
        (#"$['it\'s[2]'][5].name"#, #"$['it\'s[2]'][*].name"#),
        ("$.naïve[2].名前", "$.naïve[*].名前"),
    ])
    func textPathsLoseTheirPositions(path: String, expected: String) {
        #expect(JSONPath.indexFree(path) == expected)
    }

    @Test func decodedRepairsWriteTheSamePathWithoutPositions() throws {
        let json = #"{"members":[{"id":1,"tags":[1]},{"id":"2","tags":[1,"x",null]}],"scores":{"odd[1] key":"3"}}"#
        let report = try ResilientJSONDecoder(policy: .lenient).decodeWithReport(Group.self, from: Data(json.utf8))
        #expect(report.repairs.count == 4)
        for repair in report.repairs {
            #expect(repair.indexFreePath == JSONPath.indexFree(repair.path))
        }
        #expect(
            Set(report.repairs.map(\.indexFreePath))
                == ["$.members[*].id", "$.members[*].tags[*]", "$.scores['odd[1] key']"])
    }
}
