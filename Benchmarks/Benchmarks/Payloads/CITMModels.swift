// Codable models for citm_catalog.json (a ticketing catalogue from the nativejson-benchmark
// corpus): lookup tables keyed by numeric-string ids, events, and performances with prices and
// seat categories. Property names mirror the JSON keys; synthesized Codable throughout.

package struct CITMCatalog: Codable, Equatable, Sendable {
    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: [String: String]
    var events: [String: CITMEvent]
    var performances: [CITMPerformance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: [String: String]
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: [String: String]
}

package struct CITMEvent: Codable, Equatable, Sendable {
    var description: String?
    var id: Int
    var logo: String?
    var name: String
    var subTopicIds: [Int]
    var subjectCode: String?
    var subtitle: String?
    var topicIds: [Int]
}

package struct CITMPerformance: Codable, Equatable, Sendable {
    var eventId: Int
    var id: Int
    var logo: String?
    var name: String?
    var prices: [CITMPrice]
    var seatCategories: [CITMSeatCategory]
    var seatMapImage: String?
    var start: Int
    var venueCode: String
}

package struct CITMPrice: Codable, Equatable, Sendable {
    var amount: Int
    var audienceSubCategoryId: Int
    var seatCategoryId: Int
}

package struct CITMSeatCategory: Codable, Equatable, Sendable {
    var areas: [CITMArea]
    var seatCategoryId: Int
}

package struct CITMArea: Codable, Equatable, Sendable {
    var areaId: Int
    var blockIds: [Int]
}
