// libFuzzer entry for `OpenAPIContract.repair`: any body, as the response of any operation,
// status and content type of one fixed document that uses every form the repairs read, in
// three policies. A crash, hang, leak or broken rule below is a bug.
//
// The input's first two bytes choose the case, the rest is the body:
//   byte 0: the operation, status and content type, `cases[byte % count]`;
//   byte 1: the policy, `policies[byte % count]`.
// Missing bytes count as 0, so every input is a case.
import Backstop
import BackstopJSON
import BackstopOpenAPI
import Foundation

// MARK: The document

/// Objects with required, optional and nullable properties, `additionalProperties` and
/// defaults; string enums with each kind of fallback and none; date-times; `int32`, `int64`
/// and `float`; `allOf`; `oneOf` with and without a discriminator, nested, and with `null`;
/// `anyOf`; a recursive tree through a property and through alternatives.
private let document = """
    openapi: 3.0.3
    info:
      title: Everything
      version: "1"
    paths:
      /orders/{id}:
        get:
          operationId: getOrder
          responses:
            '200':
              description: An order.
              content:
                application/json:
                  schema:
                    $ref: '#/components/schemas/Order'
                application/vnd.shop+json:
                  schema:
                    $ref: '#/components/schemas/Envelope'
                text/html:
                  schema:
                    type: string
            '204':
              description: No body.
            4XX:
              description: An error envelope.
              content:
                application/json:
                  schema:
                    $ref: '#/components/schemas/Envelope'
            default:
              description: Anything.
              content:
                application/json: {}
      /wallet:
        get:
          operationId: getWallet
          responses:
            '200':
              description: Payment methods.
              content:
                application/json:
                  schema:
                    type: array
                    items:
                      $ref: '#/components/schemas/PaymentMethod'
      /regions:
        get:
          operationId: getRegions
          responses:
            '200':
              description: A tree.
              content:
                application/json:
                  schema:
                    $ref: '#/components/schemas/Region'
      /values:
        get:
          operationId: getValues
          responses:
            '200':
              description: A map of alternatives.
              content:
                application/json:
                  schema:
                    type: object
                    additionalProperties:
                      $ref: '#/components/schemas/Value'
    components:
      schemas:
        Envelope:
          type: object
          required: [code, msg]
          properties:
            code:
              type: integer
            msg:
              type: string
            data:
              $ref: '#/components/schemas/Order'
        Order:
          allOf:
            - $ref: '#/components/schemas/Named'
            - type: object
              required: [id, placedAt, lines, status, total]
              properties:
                id:
                  type: integer
                  format: int64
                placedAt:
                  type: string
                  format: date-time
                lines:
                  type: array
                  items:
                    $ref: '#/components/schemas/Line'
                status:
                  $ref: '#/components/schemas/Status'
                channel:
                  $ref: '#/components/schemas/Channel'
                priority:
                  $ref: '#/components/schemas/Priority'
                total:
                  type: number
                note:
                  type: string
                  nullable: true
                paid:
                  type: boolean
                  default: false
                tags:
                  type: object
                  additionalProperties:
                    type: string
                method:
                  $ref: '#/components/schemas/PaymentMethod'
        Named:
          type: object
          required: [name]
          properties:
            name:
              type: string
        Line:
          type: object
          required: [sku, quantity, price]
          properties:
            sku:
              type: string
            quantity:
              type: integer
              format: int32
            price:
              type: number
              format: float
            weight:
              type: number
              format: double
              default: 1.5
        Status:
          type: string
          enum: [open, paid, shipped, other]
        Channel:
          type: string
          enum: [web, app, phone]
          x-backstop-fallback: web
        Priority:
          type: string
          enum: [low, high]
        PaymentMethod:
          oneOf:
            - $ref: '#/components/schemas/Card'
            - $ref: '#/components/schemas/Bank'
          discriminator:
            propertyName: kind
            mapping:
              card: '#/components/schemas/Card'
              bank: '#/components/schemas/Bank'
        Card:
          type: object
          required: [kind, last4, expMonth]
          properties:
            kind:
              type: string
            last4:
              type: string
            expMonth:
              type: integer
              format: int32
            isDefault:
              type: boolean
        Bank:
          type: object
          required: [kind, iban]
          properties:
            kind:
              type: string
            iban:
              type: string
            isDefault:
              type: boolean
        Region:
          type: object
          required: [name, children]
          properties:
            name:
              type: string
            children:
              type: array
              items:
                $ref: '#/components/schemas/Region'
            parent:
              $ref: '#/components/schemas/Region'
            payload:
              $ref: '#/components/schemas/Value'
        Value:
          nullable: true
          oneOf:
            - type: integer
              format: int32
            - oneOf:
                - type: string
                  format: date-time
                - $ref: '#/components/schemas/Card'
            - anyOf:
                - type: boolean
                - $ref: '#/components/schemas/Region'
    """

private let cases: [(operation: String, status: Int, contentType: String?)] = [
    ("getOrder", 200, "application/json"), ("getOrder", 200, nil), ("getOrder", 200, "application/json; charset=utf-8"),
    ("getOrder", 200, "application/vnd.shop+json"), ("getOrder", 200, "text/html"), ("getOrder", 204, nil),
    ("getOrder", 404, "application/json"), ("getOrder", 500, "application/json"), ("getWallet", 200, "application/json"),
    ("getRegions", 200, "application/json"), ("getValues", 200, "application/json"), ("deleteOrder", 200, "application/json"),
]

private let policies: [DecodingPolicy] = [
    .lenient, .strict, DecodingPolicy.lenient.subtracting([.dropInvalidElements, .nilInvalidOptionals]),
]

private let contracts: [OpenAPIContract] = {
    do {
        return try policies.map { policy throws(OpenAPIContractError) in try OpenAPIContract(data: Data(document.utf8), policy: policy) }
    } catch {
        fatalError("the fuzzer's document does not compile: \(error)")
    }
}()

// MARK: Entry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPI(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    func choice(_ index: Int) -> Int { index < count ? Int(input[index]) : 0 }
    let body = count > 2 ? Data(input[2...]) : Data()
    let (operation, status, contentType) = cases[choice(0) % cases.count]
    let contract = contracts[choice(1) % contracts.count]

    let repaired: RepairedBody
    do {
        repaired = try contract.repair(body, operationID: operation, status: status, contentType: contentType)
    } catch {
        // A failure names where, from the body's root, and shows at most 120 characters of it.
        guard error.path.hasPrefix("$") else { fatalError("a failure path not rooted at the body: \(error)") }
        guard error.excerpt.count <= 121 else { fatalError("an excerpt of \(error.excerpt.count) characters: \(error.excerpt)") }
        _ = error.description
        return 0
    }
    guard repaired.repairs.allSatisfy({ $0.path.hasPrefix("$") }) else { fatalError("a repair path not rooted at the body: \(repaired)") }
    for repair in repaired.repairs { _ = repair.description }
    // Undescribed, or described without a body: handed on as it came.
    let described = repaired.undescribed == nil && status != 204 && operation != "deleteOrder" && contentType != "text/html"
    guard described else {
        guard repaired.body == body, repaired.repairs.isEmpty else { fatalError("an undescribed body was changed: \(repaired)") }
        return 0
    }
    guard !repaired.repairs.isEmpty || repaired.body == body else { fatalError("a body without repairs was changed") }
    // What the generated code's JSONDecoder reads: whatever is handed on parses.
    do {
        _ = try JSONSerialization.jsonObject(with: repaired.body, options: .fragmentsAllowed)
    } catch {
        fatalError("handed on a body Foundation cannot parse (\(error)): \(String(decoding: repaired.body, as: UTF8.self))")
    }
    // And a repaired body is clean: repairing it again changes nothing.
    guard !repaired.repairs.isEmpty else { return 0 }
    do {
        let again = try contract.repair(repaired.body, operationID: operation, status: status, contentType: contentType)
        guard again.repairs.isEmpty else {
            fatalError("a repaired body needs more repairs: \(again.repairs) in \(String(decoding: repaired.body, as: UTF8.self))")
        }
    } catch {
        fatalError("a repaired body fails: \(error) in \(String(decoding: repaired.body, as: UTF8.self))")
    }
    return 0
}
