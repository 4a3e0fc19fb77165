import Foundation

extension DocumentRehearsal {
    /// `body`, an answer of `operation`, dirtied by `dirt` where the document's schema for that
    /// status and content type says each value is; `nil` when the dirt finds nothing to change
    /// (no enum for ``DocumentDirt/unknownEnumValues``, say) or the body is not JSON the
    /// document describes.
    ///
    /// The entry point a server or a proxy misbehaves with: the body may be the document's own
    /// answer or a real backend's. Byte-level dirt (``DocumentDirt/byteOrderMark``,
    /// ``DocumentDirt/trailingCommas``) needs only JSON; the rest need the schema.
    package func dirtied(_ body: Data, of operation: DocumentOperation, status: Int, contentType: String?, by dirt: DocumentDirt)
        -> Data?
    {
        guard let value = SampleJSON(parsing: body), value.depth < SchemaDirtying.maximumDepth else { return nil }
        switch dirt {
        case .byteOrderMark:
            return Data([0xEF, 0xBB, 0xBF]) + value.data
        case .trailingCommas:
            let dirty = TrailingCommas.inserted(into: Array(value.data))
            return dirty.count == value.rendered.utf8.count ? nil : Data(dirty)
        default:
            break
        }
        guard
            case .schema(let root) = contract.compiled.schema(operationID: operation.operationID, status: status, contentType: contentType)
        else { return nil }
        var dirtying = SchemaDirtying(schemas: contract.compiled.schemas, dirt: dirt)
        let dirty = dirtying.dirty(value, schema: root)
        guard dirtying.changes > 0 else { return nil }
        guard dirt == .latin1 else { return dirty.data }
        let marker = Array(SchemaDirtying.latin1Marker.utf8)
        let latin1 = Array(SchemaDirtying.latin1Text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
        var bytes = Array(dirty.data)
        if let start = bytes.firstRange(of: marker) { bytes.replaceSubrange(start, with: latin1) }
        return Data(bytes)
    }

    /// `body` with an app-wide `code` and `message` where the answer's envelope carries them
    /// (``DocumentOperation/envelopeCode``); `nil` when the operation declares no such envelope.
    package func withCode(_ code: Int, message: String, in body: Data, of operation: DocumentOperation) -> Data? {
        guard let property = operation.envelopeCode, case .object(var members)? = SampleJSON(parsing: body) else { return nil }
        if let position = members.firstIndex(where: { $0.0 == property }) {
            members[position].1 = .number(String(code))
        } else {
            members.insert((property, .number(String(code))), at: 0)
        }
        if let messageProperty = operation.envelopeMessage {
            if let position = members.firstIndex(where: { $0.0 == messageProperty }) {
                members[position].1 = .string(message)
            } else {
                members.append((messageProperty, .string(message)))
            }
        }
        return SampleJSON.object(members).data
    }
}
