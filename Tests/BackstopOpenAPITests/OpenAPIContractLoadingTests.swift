import BackstopOpenAPI
import Foundation
import Testing

@Suite("An OpenAPI document read once, at set-up")
struct OpenAPIContractLoadingTests {
    @Test func aYAML30DocumentAndAJSON31DocumentAreRead() throws {
        let yaml = try Documents.contract()
        #expect(yaml.describes(operationID: "getGroup"))
        #expect(yaml.describes(operationID: "listGroups"))
        #expect(!yaml.describes(operationID: "getShapes"))
        let json = try Documents.contract(Documents.json31)
        #expect(json.describes(operationID: "getShapes"))
    }

    @Test func bytesThatAreNotAnOpenAPIDocumentFailAtSetUp() {
        #expect {
            try OpenAPIContract(data: Data("nope: [".utf8))
        } throws: { error in
            (error as? OpenAPIContractError)?.problem == .notOpenAPI && (error as? OpenAPIContractError)?.location == "document"
        }
        #expect {
            try OpenAPIContract(data: Data(#"{"openapi": "3.1.0", "info": 7}"#.utf8))
        } throws: { error in
            (error as? OpenAPIContractError)?.problem == .notOpenAPI
        }
    }

    @Test func aFileThatCannotBeReadFailsAtSetUpNamingIt() {
        let missing = URL(fileURLWithPath: "/nonexistent/openapi.yaml")
        #expect {
            try OpenAPIContract(contentsOf: missing)
        } throws: { error in
            guard let error = error as? OpenAPIContractError else { return false }
            return error.problem == .unreadable && error.location == "openapi.yaml"
        }
        #expect {
            try OpenAPIContract(resource: "openapi", in: Bundle.main)
        } throws: { error in
            (error as? OpenAPIContractError)?.problem == .unreadable
        }
    }

    @Test func aReferenceToNoComponentFailsAtSetUpNamingWhere() {
        let broken = Documents.yaml30.replacingOccurrences(
            of: "$ref: '#/components/schemas/Role'", with: "$ref: '#/components/schemas/Rank'")
        #expect {
            try Documents.contract(broken)
        } throws: { error in
            guard let error = error as? OpenAPIContractError else { return false }
            return error.problem == .unresolvedReference && error.location == "#/components/schemas/Member.role"
                && error.detail.contains("#/components/schemas/Rank")
        }
    }

    @Test func aFallbackThatIsNotOneOfTheEnumsValuesFailsAtSetUp() {
        #expect {
            try Documents.contract(enumFallbacks: ["Role": "guest"])
        } throws: { error in
            guard let error = error as? OpenAPIContractError else { return false }
            return error.problem == .invalidSchema && error.location == "#/components/schemas/Role"
                && error.detail == #"fallback "guest" is not one of the enum's values (admin, member)"#
        }
        let badExtension = Documents.yaml30.replacingOccurrences(of: "x-backstop-fallback: bronze", with: "x-backstop-fallback: tin")
        #expect(throws: OpenAPIContractError.self) { try Documents.contract(badExtension) }
    }
}
