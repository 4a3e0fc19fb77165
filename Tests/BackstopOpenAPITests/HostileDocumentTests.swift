import Backstop
import BackstopOpenAPI
import Foundation
import Testing

/// Documents made to hang, exhaust or crash set-up: each is refused there with an
/// `OpenAPIContractError`, or compiled without recursion, while the legitimate forms they
/// abuse (aliases, recursive schemas, long chains of components) keep working.
@Suite("Documents that would hang or crash set-up")
struct HostileDocumentTests {
    /// A 3.1 document with one operation, `getThing`, answering `Thing`, and `schemas` (YAML
    /// lines at the depth of `components.schemas`' entries) after it.
    static func document(_ schemas: String, extra: String = "") -> String {
        """
        openapi: 3.1.0
        info:
          title: Hostile
          version: "1"
        \(extra)
        paths:
          /thing:
            get:
              operationId: getThing
              responses:
                '200':
                  description: The thing.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Thing'
        components:
          schemas:
        \(schemas)
        """
    }

    static let thing = """
            Thing:
              type: object
              required: [id]
              properties:
                id:
                  type: integer
        """

    // MARK: Aliases

    /// Nine levels of nine aliases in an extension: 9^9 (387 million) strings once expanded.
    static func aliasBomb(levels: Int) -> String {
        var lines = ["x-laughs:", "  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1..<levels {
            let aliases = Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ")
            lines.append("  l\(level): &l\(level) [\(aliases)]")
        }
        return lines.joined(separator: "\n")
    }

    @Test func aYAMLAliasBombIsRefusedBeforeItIsExpanded() {
        for levels in [7, 9, 12] {
            #expect("\(levels) levels") {
                try OpenAPIContract(data: Data(Self.document(Self.thing, extra: Self.aliasBomb(levels: levels)).utf8))
            } throws: { error in
                guard let error = error as? OpenAPIContractError else { return false }
                return error.problem == .tooLarge && error.location == "document" && error.detail.contains("aliases would add")
            }
        }
    }

    @Test func aliasesThatExpandADocumentModeratelyAreRead() throws {
        // A response shared by two operations, and four levels of nine aliases (6,561 strings).
        let shared = """
            openapi: 3.1.0
            info:
              title: Shared
              version: "1"
            \(Self.aliasBomb(levels: 4))
            paths:
              /thing:
                get:
                  operationId: getThing
                  responses:
                    '200': &ok
                      description: The thing.
                      content:
                        application/json:
                          schema:
                            $ref: '#/components/schemas/Thing'
              /other:
                get:
                  operationId: getOther
                  responses:
                    '200': *ok
            components:
              schemas:
            \(Self.thing)
            """
        let contract = try OpenAPIContract(data: Data(shared.utf8))
        #expect(contract.describes(operationID: "getThing") && contract.describes(operationID: "getOther"))
        let repaired = try contract.repair(Data(#"{"id":"7"}"#.utf8), operationID: "getOther", status: 200, contentType: nil)
        #expect(repaired.repairs.map(\.path) == ["$.id"])
    }

    // MARK: Cycles

    @Test(arguments: [
        (
            "$ref to $ref",
            """
                Thing:
                  $ref: '#/components/schemas/Other'
                Other:
                  $ref: '#/components/schemas/Thing'
            """,
            "#/components/schemas/Thing → #/components/schemas/Other → #/components/schemas/Thing"
        ),
        (
            "allOf",
            """
                Thing:
                  allOf:
                    - $ref: '#/components/schemas/Other'
                    - type: object
                      properties:
                        id:
                          type: integer
                Other:
                  allOf:
                    - $ref: '#/components/schemas/Thing'
            """,
            "#/components/schemas/Thing → #/components/schemas/Other → #/components/schemas/Thing"
        ),
        (
            "oneOf",
            """
                Thing:
                  oneOf:
                    - type: string
                    - $ref: '#/components/schemas/Thing'
            """,
            "#/components/schemas/Thing → #/components/schemas/Thing"
        ),
    ])
    func aCycleWithNoPropertyBetweenIsRefusedNamingIt(kind: String, schemas: String, cycle: String) {
        #expect("\(kind)") {
            try OpenAPIContract(data: Data(Self.document(schemas).utf8))
        } throws: { error in
            guard let error = error as? OpenAPIContractError else { return false }
            return error.problem == .invalidSchema && error.location == "#/components/schemas/Thing" && error.detail.contains(cycle)
        }
    }

    @Test func recursiveSchemasThroughAPropertyOrAnItemAreRead() throws {
        let regions = """
                Thing:
                  $ref: '#/components/schemas/Region'
                Region:
                  type: object
                  required: [name, children]
                  properties:
                    name:
                      type: string
                    parent:
                      $ref: '#/components/schemas/Region'
                    children:
                      type: array
                      items:
                        $ref: '#/components/schemas/Region'
                    nested:
                      oneOf:
                        - type: integer
                        - $ref: '#/components/schemas/Region'
            """
        let contract = try OpenAPIContract(data: Data(Self.document(regions).utf8))
        let body = #"{"name":"EU","children":[{"name":"DE","children":[{"name":7,"children":[]}]}],"nested":{"name":"FR"}}"#
        let repaired = try contract.repair(Data(body.utf8), operationID: "getThing", status: 200, contentType: nil)
        #expect(repaired.repairs.map(\.path) == ["$.children[0].children[0].name", "$.nested.children"])
        #expect(repaired.repairs.map(\.action) == [.coerced, .defaultedBecauseMissing])
        #expect(
            String(decoding: repaired.body, as: UTF8.self)
                == #"{"name":"EU","children":[{"name":"DE","children":[{"name":"7","children":[]}]}],"nested":{"name":"FR","children":[]}}"#
        )
    }

    // MARK: Long chains on a small stack

    /// A JSON document whose `getThing` answers three chains of `length` components: through a
    /// property (`Link0.next` is `Link1`…), through `$ref`s (`Alias0` is `Alias1`…) and through
    /// `allOf`s (`Part0` is `allOf: [Part1]`…), each ending in an object with an integer `v`.
    static func chains(_ length: Int) -> Data {
        var schemas: [String] = []
        let end = #"{"type": "object", "required": ["v"], "properties": {"v": {"type": "integer"}}}"#
        let prefix = "#/components/schemas/"
        for index in 0..<length {
            schemas.append(
                #""Link\#(index)": {"type": "object", "properties": {"next": {"$ref": "\#(prefix)Link\#(index + 1)"}, "v": {"type": "integer"}}}"#
            )
            schemas.append(#""Alias\#(index)": {"$ref": "\#(prefix)Alias\#(index + 1)"}"#)
            schemas.append(#""Part\#(index)": {"allOf": [{"$ref": "\#(prefix)Part\#(index + 1)"}]}"#)
        }
        schemas.append(#""Link\#(length)": \#(end)"#)
        schemas.append(#""Alias\#(length)": \#(end)"#)
        schemas.append(#""Part\#(length)": \#(end)"#)
        let thing =
            #"{"type": "object", "properties": {"link": {"$ref": "\#(prefix)Link0"}, "alias": {"$ref": "\#(prefix)Alias0"}, "part": {"$ref": "\#(prefix)Part0"}}}"#
        return Data(
            """
            {"openapi": "3.1.0", "info": {"title": "Chains", "version": "1"},
             "paths": {"/thing": {"get": {"operationId": "getThing", "responses": {"200": {"description": "The thing.",
               "content": {"application/json": {"schema": \(thing)}}}}}}},
             "components": {"schemas": {\(schemas.joined(separator: ",\n"))}}}
            """.utf8)
    }

    /// What a thread with `stackSize` bytes of stack made of `data`, waited for without sleeping.
    final class SmallStackOutcome: @unchecked Sendable {
        // Written by the thread before `done` is signalled, read after the wait.
        var result: Result<OpenAPIContract, OpenAPIContractError>?
        let done = DispatchSemaphore(value: 0)
    }

    static func contract(from data: Data, stackSize: Int) -> Result<OpenAPIContract, OpenAPIContractError>? {
        let outcome = SmallStackOutcome()
        let thread = Thread {
            outcome.result = Result { () throws(OpenAPIContractError) in try OpenAPIContract(data: data) }
            outcome.done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        outcome.done.wait()
        return outcome.result
    }

    @Test func aThousandChainedComponentsCompileOnA512KiBStack() throws {
        let contract = try #require(Self.contract(from: Self.chains(1_000), stackSize: 512 * 1024)).get()
        // Each chain ends where it should: its last object, not "any value".
        let body = #"{"alias":{"v":"1"},"part":{"v":"2"},"link":{"next":{"next":{"v":"3"}}}}"#
        let repaired = try contract.repair(Data(body.utf8), operationID: "getThing", status: 200, contentType: nil)
        #expect(repaired.repairs.map(\.path) == ["$.alias.v", "$.part.v", "$.link.next.next.v"])
        #expect(String(decoding: repaired.body, as: UTF8.self) == #"{"alias":{"v":1},"part":{"v":2},"link":{"next":{"next":{"v":3}}}}"#)
    }
}
