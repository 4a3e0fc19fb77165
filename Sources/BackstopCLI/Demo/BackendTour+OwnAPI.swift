import BackstopJSON
import BackstopOpenAPI
import BadBackend
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@available(macOS 14, iOS 17, tvOS 17, *)
extension BackendTour {
    /// The misbehaviours the scene rehearses, of the nine `backstop rehearse` tries.
    static let rehearsedDirt: [DocumentDirt] = [.numbersAsStrings, .unknownEnumValues, .notANumber]

    /// `backstop rehearse` and `backstop serve --openapi` on BadBackend's own openapi.yaml, as a
    /// team would run them on theirs: a few rows of what a generated client survives, then one
    /// operation served dirty because the request's `Backstop-Scenario` header asked.
    func ownAPIStep() async {
        begin(
            "Your own API: rehearse its document, then serve it dirty on request",
            "backstop rehearse makes each operation's answer dirty where the document's schema says and runs it through "
                + "OpenAPIContract, as a generated client would; it exits 1 when any call fails. serve --openapi serves the "
                + "document and misbehaves when a request names a scenario. Here, on the openapi.yaml BadBackend serves.",
            code: [
                "swift run backstop rehearse openapi.yaml --operation getProduct",
                "swift run backstop serve --openapi openapi.yaml",
                "curl -H 'Backstop-Scenario: numbers-as-strings' http://127.0.0.1:<port>/b/products/1",
            ])
        let rehearsal: DocumentRehearsal
        let served: BadBackend.ServedDocument
        do {
            rehearsal = try DocumentRehearsal(data: BadBackend.openAPIDocument, source: "openapi.yaml")
            served = try BadBackend.ServedDocument(data: BadBackend.openAPIDocument, source: "openapi.yaml")
        } catch {
            block("rehearse", [terminal.paint("openapi.yaml: \(error)", .bad)])
            return
        }
        if let product = rehearsal.operations.first(where: { $0.operationID == "getProduct" }) {
            let rows = ([nil] + Self.rehearsedDirt).map { dirt in
                RehearsalRow(operation: product, dirt: dirt, outcome: rehearsal.rehearse(product, dirt))
            }
            let summary = RehearsalRow.render(rows, as: .text).split(separator: "\n").last.map(String.init) ?? ""
            block("rehearse", ["getProduct (GET /b/products/{id}):"] + rows.map(Self.shortRow) + [summary])
        }
        let backend = BadBackend(configuration: .init(document: served))
        do {
            try await backend.withRunning { url in
                var request = URLRequest(url: url.appendingPathComponent("b/products/1"))
                request.setValue("numbers-as-strings", forHTTPHeaderField: "Backstop-Scenario")
                let (body, response) = try await URLSession.shared.data(for: request)
                let applied = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Backstop-Scenario-Applied") ?? "none"
                let text = String(decoding: body, as: UTF8.self)
                block(
                    "served",
                    ["GET /b/products/1 with Backstop-Scenario: numbers-as-strings", text, "Backstop-Scenario-Applied: \(applied)"])
            }
        } catch {
            block("served", [terminal.paint("\(error)", .bad)])
        }
        block("read", [TourArticle.rehearsingYourOwnAPI.reference])
    }

    /// One row of the rehearsal: the misbehaviour, survived or failed, and the first repair or the failure.
    static func shortRow(_ row: RehearsalRow) -> String {
        let name = (row.dirt?.rawValue ?? "clean").padding(toLength: 21, withPad: " ", startingAt: 0)
        guard case .survived(let repairs) = row.outcome, repairs.count > 1 else { return "\(name)\(row.verdict)  \(row.detail)" }
        return "\(name)\(row.verdict)  \(repairs.count) repairs, the first: \(UntrustedText.escaped(repairs[0].description))"
    }
}
