/// The schema table as the clean path reads it: plain values in flat arrays, so checking a
/// body retains and releases nothing (``CompiledSchema``'s arrays and strings would, at every value).
struct FlatSchemas: Sendable {
    struct Node: Sendable {
        var kind: CompiledSchema.Kind
        var nullable: Bool
        var isDateTime: Bool
        var hasEnum: Bool
        var format: CompiledSchema.Format
        /// An array's items' schema, or -1 for any value.
        var items: Int32
        /// `additionalProperties`' schema, or -1 for any value.
        var additional: Int32
        var propertyStart: Int32
        var propertyCount: Int32
        var requiredCount: Int32
        var alternativeStart: Int32
        var alternativeCount: Int32
    }

    struct Property: Sendable {
        /// The name's bytes in ``FlatSchemas/names``, which ends in 8 bytes of padding.
        var nameStart: Int32
        var nameCount: Int32
        var schema: Int32
        var required: Bool
        /// A required property's bit in the mask of those an object has shown: its place among
        /// the required ones, modulo 64 (an object with more may take the tape-based walk for
        /// nothing, never pass for clean with one missing).
        var requiredBit: UInt64
    }

    var nodes: [Node] = []
    var properties: [Property] = []
    var names: [UInt8] = []
    var alternatives: [Int32] = []

    init(_ schemas: [CompiledSchema]) {
        for schema in schemas {
            nodes.append(
                Node(
                    kind: schema.kind, nullable: schema.nullable, isDateTime: schema.isDateTime, hasEnum: !schema.enumValues.isEmpty,
                    format: schema.format,
                    items: Int32(schema.items ?? -1), additional: Int32(schema.additional ?? -1), propertyStart: Int32(properties.count),
                    propertyCount: Int32(schema.properties.count), requiredCount: Int32(schema.requiredCount),
                    alternativeStart: Int32(alternatives.count), alternativeCount: Int32(schema.alternatives.count)))
            var slot: UInt64 = 0
            for property in schema.properties {
                properties.append(
                    Property(
                        nameStart: Int32(names.count), nameCount: Int32(property.name.count), schema: Int32(property.schema),
                        required: property.required, requiredBit: property.required ? 1 &<< (slot & 63) : 0))
                if property.required { slot += 1 }
                names.append(contentsOf: property.name)
            }
            alternatives.append(contentsOf: schema.alternatives.map { Int32($0) })
        }
        // So that ``StreamingCheck`` may read any name eight bytes at a time.
        names.append(contentsOf: repeatElement(0, count: 8))
    }
}
