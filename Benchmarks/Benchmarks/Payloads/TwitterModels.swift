// swift-format-ignore-file: AlwaysUseLowerCamelCase
// Codable models for twitter.json (the search API response from the nativejson-benchmark
// corpus). Property names mirror the JSON keys, so every type uses synthesized Codable.
// Optionals are used exactly where the corpus holds `null` or omits the key.

package struct TwitterSearch: Codable, Equatable, Sendable {
    var statuses: [Status]
    var search_metadata: SearchMetadata
}

package struct SearchMetadata: Codable, Equatable, Sendable {
    var completed_in: Double
    var max_id: Int64
    var max_id_str: String
    var next_results: String
    var query: String
    var refresh_url: String
    var count: Int
    var since_id: Int64
    var since_id_str: String
}

/// A top-level status. A retweet carries the original as `retweeted_status`; a struct cannot
/// contain itself, so the original is a `RetweetedStatus` with the same fields but no nested retweet.
package struct Status: Codable, Equatable, Sendable {
    var metadata: StatusMetadata
    var created_at: String
    var id: Int64
    var id_str: String
    var text: String
    var source: String
    var truncated: Bool
    var in_reply_to_status_id: Int64?
    var in_reply_to_status_id_str: String?
    var in_reply_to_user_id: Int64?
    var in_reply_to_user_id_str: String?
    var in_reply_to_screen_name: String?
    var user: User
    var geo: GeoPoint?
    var coordinates: GeoPoint?
    var place: Place?
    var contributors: [Int64]?
    var retweeted_status: RetweetedStatus?
    var retweet_count: Int
    var favorite_count: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possibly_sensitive: Bool?
    var lang: String
}

package struct RetweetedStatus: Codable, Equatable, Sendable {
    var metadata: StatusMetadata
    var created_at: String
    var id: Int64
    var id_str: String
    var text: String
    var source: String
    var truncated: Bool
    var in_reply_to_status_id: Int64?
    var in_reply_to_status_id_str: String?
    var in_reply_to_user_id: Int64?
    var in_reply_to_user_id_str: String?
    var in_reply_to_screen_name: String?
    var user: User
    var geo: GeoPoint?
    var coordinates: GeoPoint?
    var place: Place?
    var contributors: [Int64]?
    var retweet_count: Int
    var favorite_count: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possibly_sensitive: Bool?
    var lang: String
}

package struct StatusMetadata: Codable, Equatable, Sendable {
    var result_type: String
    var iso_language_code: String
}

/// Always `null` in the corpus; modelled the way the API documents it.
package struct GeoPoint: Codable, Equatable, Sendable {
    var type: String
    var coordinates: [Double]
}

/// Always `null` in the corpus; modelled the way the API documents it.
package struct Place: Codable, Equatable, Sendable {
    var id: String
    var url: String
    var place_type: String
    var name: String
    var full_name: String
    var country_code: String
    var country: String
}

package struct User: Codable, Equatable, Sendable {
    var id: Int64
    var id_str: String
    var name: String
    var screen_name: String
    var location: String
    var description: String
    var url: String?
    var entities: UserEntities
    var protected: Bool
    var followers_count: Int
    var friends_count: Int
    var listed_count: Int
    var created_at: String
    var favourites_count: Int
    var utc_offset: Int?
    var time_zone: String?
    var geo_enabled: Bool
    var verified: Bool
    var statuses_count: Int
    var lang: String
    var contributors_enabled: Bool
    var is_translator: Bool
    var is_translation_enabled: Bool
    var profile_background_color: String
    var profile_background_image_url: String
    var profile_background_image_url_https: String
    var profile_background_tile: Bool
    var profile_image_url: String
    var profile_image_url_https: String
    var profile_banner_url: String?
    var profile_link_color: String
    var profile_sidebar_border_color: String
    var profile_sidebar_fill_color: String
    var profile_text_color: String
    var profile_use_background_image: Bool
    var default_profile: Bool
    var default_profile_image: Bool
    var following: Bool
    var follow_request_sent: Bool
    var notifications: Bool
}

package struct UserEntities: Codable, Equatable, Sendable {
    var url: URLEntities?
    var description: URLEntities
}

package struct URLEntities: Codable, Equatable, Sendable {
    var urls: [URLEntity]
}

package struct URLEntity: Codable, Equatable, Sendable {
    var url: String
    var expanded_url: String
    var display_url: String
    var indices: [Int]
}

package struct Entities: Codable, Equatable, Sendable {
    var hashtags: [Hashtag]
    /// Always empty in the corpus; cashtags have the same shape as hashtags.
    var symbols: [Hashtag]
    var urls: [URLEntity]
    var user_mentions: [UserMention]
    var media: [Media]?
}

package struct Hashtag: Codable, Equatable, Sendable {
    var text: String
    var indices: [Int]
}

package struct UserMention: Codable, Equatable, Sendable {
    var screen_name: String
    var name: String
    var id: Int64
    var id_str: String
    var indices: [Int]
}

package struct Media: Codable, Equatable, Sendable {
    var id: Int64
    var id_str: String
    var indices: [Int]
    var media_url: String
    var media_url_https: String
    var url: String
    var display_url: String
    var expanded_url: String
    var type: String
    var sizes: MediaSizes
    var source_status_id: Int64?
    var source_status_id_str: String?
}

package struct MediaSizes: Codable, Equatable, Sendable {
    var medium: MediaSize
    var small: MediaSize
    var thumb: MediaSize
    var large: MediaSize
}

package struct MediaSize: Codable, Equatable, Sendable {
    var w: Int
    var h: Int
    var resize: String
}
