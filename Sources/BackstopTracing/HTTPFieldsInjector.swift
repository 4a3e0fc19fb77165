import HTTPTypes

#if Tracing
    import Instrumentation
#else
    #error("BackstopTracing needs Backstop's Tracing trait: .package(name: \"Backstop\", …, traits: [\"Tracing\"])")
#endif

/// Writes trace context into request header fields; a key that is no valid field name is skipped.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}
