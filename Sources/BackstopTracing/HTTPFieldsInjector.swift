import HTTPTypes
import Instrumentation

/// Writes trace context into request header fields; a key that is no valid field name is skipped.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}
