import Foundation

/// Reading scalars from the tape, with Foundation's results in strict mode and the
/// lossless coercions of ``DecodingPolicy`` in lenient mode.
extension DecoderState {
    // MARK: Strings

    /// A string value, read without naming `key` when it needs no error or repair.
    @inline(__always)
    func unwrapString(_ valueIndex: Int, _ key: @autoclosure () -> (any CodingKey)?) throws -> String {
        let node = document[valueIndex]
        if node.kind == .string && node.flags.isPlainText { return document.plainText(of: node) }
        return try unwrapStringInFull(valueIndex, key())
    }

    /// Every case of ``unwrapString(_:_:)``, out of line.
    @inline(never)
    private func unwrapStringInFull(_ valueIndex: Int, _ key: (any CodingKey)?) throws -> String {
        let node = document[valueIndex]
        if node.kind == .string { return try string(node, key) }
        if allows(.stringsFromNumbers), let text = document.coercedString(valueIndex) {
            recordCoercion(valueIndex, to: String.self, key)
            return text
        }
        if node.kind == .null { throw valueNotFound(String.self, key) }
        throw typeMismatch(String.self, at: valueIndex, key)
    }

    /// The text of a string node, unescaping when needed.
    @inline(__always)
    func string(_ node: JSONNode, _ key: @autoclosure () -> (any CodingKey)?) throws -> String {
        // The common case first, without building a `Result`: no escapes and nothing repaired.
        if node.flags.isPlainText { return document.plainText(of: node) }
        return try escapedOrRepairedString(node, key())
    }

    /// The slow path of ``string(_:_:)``: unescapes, and reports what lenient parsing
    /// accepted in the string (raw control characters, ill-formed Unicode).
    @inline(never)
    private func escapedOrRepairedString(_ node: JSONNode, _ key: @autoclosure () -> (any CodingKey)?) throws -> String {
        let raw = document.raw(node)
        // Either way, each maximal ill-formed UTF-8 subpart becomes U+FFFD.
        let text: String
        var replacedSurrogates = false
        if node.flags.contains(.escaped) {
            switch JSONString.unescape(
                raw, replacingInvalidUnicode: allows(.replaceInvalidUnicode), isUTF8: !node.flags.contains(.invalidUTF8))
            {
            case .success(let unescaped): (text, replacedSurrogates) = unescaped
            case .failure(let reason):
                throw DecodingError.dataCorrupted(context(key(), "The given data was not valid JSON. \(reason)"))
            }
        } else {
            text = String(decoding: raw, as: UTF8.self)
        }
        if node.flags.contains(.controlCharacters) { recordControlCharacters(raw, key()) }
        if replacedSurrogates || node.flags.contains(.invalidUTF8) { recordInvalidUnicode(raw, key()) }
        return text
    }

    // MARK: Bool

    /// A Boolean value, read without naming `key` when it needs no error or repair.
    @inline(__always)
    func unwrapBool(_ valueIndex: Int, _ key: @autoclosure () -> (any CodingKey)?) throws -> Bool {
        switch document[valueIndex].kind {
        case .true: true
        case .false: false
        default: try unwrapBoolInFull(valueIndex, key())
        }
    }

    /// Every case of ``unwrapBool(_:_:)``, out of line.
    @inline(never)
    private func unwrapBoolInFull(_ valueIndex: Int, _ key: (any CodingKey)?) throws -> Bool {
        let node = document[valueIndex]
        switch node.kind {
        case .true: return true
        case .false: return false
        case .null:
            // Foundation has no null check for Bool and calls it a type mismatch; strict mode does too.
            if options.policy == .strict { break }
            throw valueNotFound(Bool.self, key)
        case .number, .string:
            if allows(.boolsFromNumbersAndStrings), let value = document.coercedBool(valueIndex) {
                recordCoercion(valueIndex, to: Bool.self, key)
                return value
            }
        default: break
        }
        throw typeMismatch(Bool.self, at: valueIndex, key)
    }

    // MARK: Numbers

    /// An integer value, read without naming `key` when it needs no error or repair.
    @inline(__always)
    func unwrapInteger<T: FixedWidthInteger>(_ valueIndex: Int, _ type: T.Type, _ key: @autoclosure () -> (any CodingKey)?) throws -> T {
        let node = document[valueIndex]
        if node.kind == .number && node.flags.contains(.integer),
            let value = JSONNumber.integer(document.raw(node), negative: node.flags.contains(.negative), as: T.self)
        {
            return value
        }
        return try unwrapIntegerInFull(valueIndex, type, key())
    }

    /// Every case of ``unwrapInteger(_:_:_:)``, out of line.
    @inline(never)
    private func unwrapIntegerInFull<T: FixedWidthInteger>(_ valueIndex: Int, _ type: T.Type, _ key: (any CodingKey)?) throws -> T {
        let node = document[valueIndex]
        if node.kind == .number {
            let raw = document.raw(node)
            if node.flags.contains(.integer) {
                if let value = JSONNumber.integer(raw, negative: node.flags.contains(.negative), as: T.self) { return value }
            } else if node.flags.contains(.nonFinite) {
                throw nonFiniteMismatch(T.self, at: valueIndex, key)
            } else if let value = JSONNumber.wholeNumber(raw, as: T.self) {
                return value
            }
            throw numberDoesNotFit(raw, T.self, key)
        }
        if allows(.numbersFromStrings), let value = document.coercedInteger(valueIndex, as: T.self) {
            recordCoercion(valueIndex, to: T.self, key)
            return value
        }
        if node.kind == .null { throw valueNotFound(T.self, key) }
        throw typeMismatch(T.self, at: valueIndex, key)
    }

    /// A floating-point value, read without naming `key` when it needs no error or repair.
    @inline(__always)
    func unwrapFloat<T: BinaryFloatingPoint>(_ valueIndex: Int, _ type: T.Type, _ key: @autoclosure () -> (any CodingKey)?) throws -> T {
        let node = document[valueIndex]
        if node.kind == .number && !node.flags.contains(.nonFinite), let value = JSONNumber.floatingPoint(document.raw(node), as: T.self) {
            return value
        }
        return try unwrapFloatInFull(valueIndex, type, key())
    }

    /// Every case of ``unwrapFloat(_:_:_:)``, out of line.
    @inline(never)
    private func unwrapFloatInFull<T: BinaryFloatingPoint>(_ valueIndex: Int, _ type: T.Type, _ key: (any CodingKey)?) throws -> T {
        let node = document[valueIndex]
        if node.kind == .number {
            // Only lenient parsing lets these through; the number parser would misread them.
            if node.flags.contains(.nonFinite) { return acceptNonFinite(valueIndex, as: T.self, key) }
            let raw = document.raw(node)
            if let value = JSONNumber.floatingPoint(raw, as: T.self) { return value }
            throw numberDoesNotFit(raw, T.self, key)
        }
        if node.kind == .string {
            // Foundation compares the raw bytes, so an escaped spelling never matches.
            if !node.flags.contains(.escaped),
                case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = options.floatStrategy
            {
                let text = try string(node, key)
                if text == positiveInfinity { return .infinity }
                if text == negativeInfinity { return -.infinity }
                if text == nan { return .nan }
            }
            if allows(.numbersFromStrings), let value = document.coercedFloat(valueIndex, as: T.self) {
                recordCoercion(valueIndex, to: T.self, key)
                return value
            }
        }
        if node.kind == .null { throw valueNotFound(T.self, key) }
        throw typeMismatch(T.self, at: valueIndex, key)
    }

    func unwrapDecimal(_ valueIndex: Int, _ key: (any CodingKey)?) throws -> Decimal {
        let node = document[valueIndex]
        var coerced = false
        if node.kind == .string && allows(.numbersFromStrings) && !node.flags.contains(.escaped)
            && Coercion.isNumber(document.raw(node))
        {
            coerced = true
        } else if node.kind != .number {
            if node.kind == .null { throw valueNotFound(Decimal.self, key) }
            throw typeMismatch(Decimal.self, at: valueIndex, key)
        } else if node.flags.contains(.nonFinite) {
            throw nonFiniteMismatch(Decimal.self, at: valueIndex, key)
        }
        let raw = document.raw(node)
        // Out of Decimal's range, as Foundation decides it: a finite Double is the test.
        guard JSONNumber.double(raw) != nil, let value = Decimal(string: String(decoding: raw, as: UTF8.self), locale: nil) else {
            throw numberDoesNotFit(raw, Decimal.self, key)
        }
        if coerced { recordCoercion(valueIndex, to: Decimal.self, key) }
        return value
    }

    // MARK: Foundation types

    func unwrapDate(_ valueIndex: Int, _ key: (any CodingKey)?) throws -> Date {
        switch options.dateStrategy {
        case .deferredToDate:
            return try with(valueIndex, key.map { .key($0) }) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unwrapFloat(valueIndex, Double.self, key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try unwrapFloat(valueIndex, Double.self, key) / 1000)
        case .iso8601:
            let text = try unwrapString(valueIndex, key)
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                // Foundation reports this one at the enclosing container's path; strict mode does too.
                let description = "Expected date string to be ISO8601-formatted."
                throw DecodingError.dataCorrupted(context(options.policy == .strict ? nil : key, description))
            }
            return date
        case .formatted(let formatter):
            let text = try unwrapString(valueIndex, key)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(context(key, "Date string does not match format expected by formatter."))
            }
            return date
        case .custom(let read):
            return try with(valueIndex, key.map { .key($0) }) { try read(self) }
        }
    }

    func unwrapData(_ valueIndex: Int, _ key: (any CodingKey)?) throws -> Data {
        switch options.dataStrategy {
        case .deferredToData:
            return try with(valueIndex, key.map { .key($0) }) { try Data(from: self) }
        case .base64:
            let text = try unwrapString(valueIndex, key)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(context(key, "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let read):
            return try with(valueIndex, key.map { .key($0) }) { try read(self) }
        }
    }

    func unwrapURL(_ valueIndex: Int, _ key: (any CodingKey)?) throws -> URL {
        let text = try unwrapString(valueIndex, key)
        guard let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(context(key, "Invalid URL string."))
        }
        return url
    }
}
