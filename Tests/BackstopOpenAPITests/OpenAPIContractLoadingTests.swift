import BackstopOpenAPI
import Foundation
import Testing

@Suite struct OpenAPIContractLoadingTests {
    @Test func aDocumentThatIsNotOpenAPIFailsAtSetUp() {
        #expect(throws: OpenAPIContractError.self) { try OpenAPIContract(data: Data("nope: [".utf8)) }
    }
}
