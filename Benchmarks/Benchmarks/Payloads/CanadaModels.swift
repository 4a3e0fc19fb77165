// Codable models for canada.json (a GeoJSON FeatureCollection with the outline of Canada from
// the nativejson-benchmark corpus): ~56k coordinate pairs (~111k numbers), so this payload is almost all Doubles.

package struct FeatureCollection: Codable, Equatable, Sendable {
    var type: String
    var features: [Feature]
}

package struct Feature: Codable, Equatable, Sendable {
    var type: String
    var properties: FeatureProperties
    var geometry: Geometry
}

package struct FeatureProperties: Codable, Equatable, Sendable {
    var name: String
}

package struct Geometry: Codable, Equatable, Sendable {
    var type: String
    /// Polygon: rings of [longitude, latitude] positions.
    var coordinates: [[[Double]]]
}
