#!/usr/bin/env python3
"""Writes Tests/Documents/large.yaml: an OpenAPI 3.0 document of 300 operations (60 resources,
each listed, read, created, updated and deleted), for `backstop rehearse` and `serve --openapi`
on a document the size of a real company's API. Deterministic: the same file every run.

    python3 Scripts/generate-large-openapi.py          # rewrite the file
    python3 Scripts/generate-large-openapi.py --check  # fail if the file is not what it would write
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "Documents", "large.yaml")

NOUNS = [
    "account", "address", "alert", "announcement", "appointment", "asset", "attachment", "audit", "badge", "batch",
    "bill", "booking", "branch", "budget", "campaign", "card", "cart", "category", "channel", "claim",
    "comment", "contact", "contract", "coupon", "course", "customer", "delivery", "device", "discount", "document",
    "event", "expense", "feedback", "grade", "group", "invoice", "item", "journey", "lesson", "loan",
    "member", "message", "note", "offer", "order", "parcel", "payment", "plan", "policy", "project",
    "receipt", "refund", "reminder", "review", "route", "schedule", "shipment", "subscription", "task", "ticket",
]
STATUSES = ["draft", "active", "paused", "closed", "archived"]


def camel(noun):
    return noun[0].upper() + noun[1:]


def schema(index, noun):
    """A resource schema whose shape varies with its index: every type, format and form the tools read."""
    name = camel(noun)
    other = camel(NOUNS[(index + 7) % len(NOUNS)])
    lines = [
        f"    {name}:",
        "      type: object",
        "      required: [id, title, status, createdAt" + (", amount" if index % 2 == 0 else "") + "]",
        "      properties:",
        "        id:",
        "          type: integer",
        "          format: int64",
        "        title:",
        "          type: string",
        "          minLength: 3",
        "          maxLength: 60",
        "        status:",
        "          type: string",
        f"          enum: [{', '.join(STATUSES[: 3 + index % 3])}]",
        "        createdAt:",
        "          type: string",
        "          format: date-time",
        "        amount:",
        "          type: number",
        "          minimum: 0",
        "          maximum: 10000",
        "        count:",
        "          type: integer",
        "          format: int32",
        "        enabled:",
        "          type: boolean",
        "        tags:",
        "          type: array",
        "          maxItems: 5",
        "          items:",
        "            type: string",
    ]
    if index % 3 == 0:
        lines += ["        owner:", f"          $ref: '#/components/schemas/Owner'"]
    if index % 4 == 1:
        lines += ["        related:", "          type: array", "          items:", f"            type: integer"]
    if index % 5 == 2:
        lines += ["        note:", "          type: string", "          nullable: true"]
    if index % 6 == 3:
        lines += ["        email:", "          type: string", "          format: email", "        website:", "          type: string", "          format: uri"]
    if index % 7 == 4:
        lines += ["        reference:", "          type: string", "          format: uuid"]
    if index % 10 == 5:
        lines += ["        parent:", f"          $ref: '#/components/schemas/{other}Summary'"]
    lines += [
        f"    {name}Summary:",
        "      type: object",
        "      required: [id, title]",
        "      properties:",
        "        id:",
        "          type: integer",
        "        title:",
        "          type: string",
        f"    {name}Page:",
        "      type: object",
        "      required: [items, total]",
        "      properties:",
        "        items:",
        "          type: array",
        "          items:",
        f"            $ref: '#/components/schemas/{name}'",
        "        total:",
        "          type: integer",
        "        nextPage:",
        "          type: integer",
        "          nullable: true",
    ]
    return lines


def paths(index, noun):
    name = camel(noun)
    plural = noun + "s"
    secured = index % 2 == 0
    security = ["      security:", "        - bearer: []"] if secured else []
    ref = f"'#/components/schemas/{name}'"
    one = [
        "          description: One " + noun + ".",
        "          content:",
        "            application/json:",
        "              schema:",
        f"                $ref: {ref}",
    ]
    problem = [
        "        '404':",
        "          description: Not found.",
        "          content:",
        "            application/json:",
        "              schema:",
        "                $ref: '#/components/schemas/Problem'",
    ]
    body = [
        "      requestBody:",
        "        content:",
        "          application/json:",
        "            schema:",
        f"              $ref: {ref}",
    ]
    return [
        f"  /{plural}:",
        "    get:",
        f"      operationId: list{name}s",
        *security,
        "      parameters:",
        "        - name: page",
        "          in: query",
        "          schema:",
        "            type: integer",
        "            minimum: 1",
        "        - name: status",
        "          in: query",
        "          schema:",
        "            type: string",
        f"            enum: [{', '.join(STATUSES)}]",
        "      responses:",
        "        '200':",
        f"          description: A page of {plural}.",
        "          content:",
        "            application/json:",
        "              schema:",
        f"                $ref: '#/components/schemas/{name}Page'",
        "    post:",
        f"      operationId: create{name}",
        *security,
        *body,
        "      responses:",
        "        '201':",
        *one,
        f"  /{plural}/{{{noun}Id}}:",
        "    parameters:",
        f"      - name: {noun}Id",
        "        in: path",
        "        required: true",
        "        schema:",
        "          type: integer",
        "    get:",
        f"      operationId: get{name}",
        *security,
        "      responses:",
        "        '200':",
        *one,
        *problem,
        "    put:",
        f"      operationId: update{name}",
        *security,
        *body,
        "      responses:",
        "        '200':",
        *one,
        *problem,
        "    delete:",
        f"      operationId: delete{name}",
        *security,
        "      responses:",
        "        '204':",
        "          description: Deleted.",
        *problem,
    ]


def document():
    lines = [
        "# Written by Scripts/generate-large-openapi.py; do not edit by hand.",
        "openapi: 3.0.3",
        "info:",
        "  title: Large Company API",
        '  version: "1.0"',
        f"  description: {len(NOUNS) * 5} operations over {len(NOUNS)} resources.",
        "servers:",
        "  - url: https://api.large-company.example/v1",
        "paths:",
    ]
    for index, noun in enumerate(NOUNS):
        lines += paths(index, noun)
    lines += [
        "components:",
        "  securitySchemes:",
        "    bearer:",
        "      type: http",
        "      scheme: bearer",
        "  schemas:",
        "    Owner:",
        "      type: object",
        "      required: [id, name]",
        "      properties:",
        "        id:",
        "          type: integer",
        "        name:",
        "          type: string",
        "        role:",
        "          type: string",
        "          enum: [admin, editor, viewer]",
        "    Problem:",
        "      type: object",
        "      required: [title, status]",
        "      properties:",
        "        title:",
        "          type: string",
        "        status:",
        "          type: integer",
    ]
    for index, noun in enumerate(NOUNS):
        lines += schema(index, noun)
    return "\n".join(lines) + "\n"


def main():
    text = document()
    if sys.argv[1:] == ["--check"]:
        with open(OUT, encoding="utf-8") as current:
            if current.read() != text:
                sys.exit(f"{OUT} is not what Scripts/generate-large-openapi.py writes; run it")
        return
    with open(OUT, "w", encoding="utf-8") as out:
        out.write(text)


if __name__ == "__main__":
    main()
