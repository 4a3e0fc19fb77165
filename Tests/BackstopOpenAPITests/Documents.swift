import BackstopJSON
import BackstopOpenAPI
import Foundation

/// The OpenAPI documents the tests read, inline: a 3.0 YAML one and a 3.1 JSON one.
enum Documents {
    /// OpenAPI 3.0 in YAML: `$ref`s, `nullable`, the three ways an enum names its fallback.
    static let yaml30 = """
        openapi: 3.0.3
        info:
          title: Study groups
          version: "1"
        paths:
          /groups/{id}:
            get:
              operationId: getGroup
              responses:
                '200':
                  description: The group.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Group'
                '404':
                  description: No such group.
          /members/{id}:
            get:
              operationId: getMember
              responses:
                '200':
                  description: The member.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Member'
          /groups:
            get:
              operationId: listGroups
              responses:
                '2XX':
                  description: The groups, in an envelope.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [code, data]
                        properties:
                          code:
                            type: integer
                          msg:
                            type: string
                          data:
                            type: array
                            items:
                              $ref: '#/components/schemas/Group'
        components:
          schemas:
            Group:
              type: object
              required: [id, name, members, createdAt]
              properties:
                id:
                  type: integer
                name:
                  type: string
                score:
                  type: number
                active:
                  type: boolean
                createdAt:
                  type: string
                  format: date-time
                nickname:
                  type: string
                  nullable: true
                category:
                  $ref: '#/components/schemas/Category'
                tier:
                  $ref: '#/components/schemas/Tier'
                members:
                  type: array
                  items:
                    $ref: '#/components/schemas/Member'
                level:
                  type: integer
                  default: 3
            Member:
              type: object
              required: [id, role]
              properties:
                id:
                  type: integer
                role:
                  $ref: '#/components/schemas/Role'
            Category:
              type: string
              enum: [food, drink, other]
            Tier:
              type: string
              enum: [gold, silver, bronze]
              x-backstop-fallback: bronze
            Role:
              type: string
              enum: [admin, member]
        """

    /// OpenAPI 3.1 in JSON: `type: [string, "null"]`, `allOf`, `oneOf`, `anyOf`.
    static let json31 = """
        {
          "openapi": "3.1.0",
          "info": {"title": "Shapes", "version": "1"},
          "paths": {
            "/shapes": {
              "get": {
                "operationId": "getShapes",
                "responses": {
                  "200": {
                    "description": "Shapes.",
                    "content": {
                      "application/json": {
                        "schema": {"$ref": "#/components/schemas/Shapes"}
                      }
                    }
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "Named": {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string"}}
              },
              "Sized": {
                "allOf": [
                  {"$ref": "#/components/schemas/Named"},
                  {"type": "object", "required": ["size"], "properties": {"size": {"type": "integer"}}}
                ]
              },
              "Circle": {
                "type": "object",
                "required": ["radius"],
                "properties": {"radius": {"type": "number"}}
              },
              "Square": {
                "type": "object",
                "required": ["side"],
                "properties": {"side": {"type": "integer"}}
              },
              "Shapes": {
                "type": "object",
                "required": ["sized", "shape"],
                "properties": {
                  "sized": {"$ref": "#/components/schemas/Sized"},
                  "shape": {"oneOf": [{"$ref": "#/components/schemas/Circle"}, {"$ref": "#/components/schemas/Square"}]},
                  "either": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                  "note": {"type": ["string", "null"]}
                }
              }
            }
          }
        }
        """

    static func contract(_ text: String = yaml30, policy: DecodingPolicy = .lenient, enumFallbacks: [String: String] = [:]) throws
        -> OpenAPIContract
    {
        try OpenAPIContract(data: Data(text.utf8), policy: policy, enumFallbacks: enumFallbacks)
    }
}
