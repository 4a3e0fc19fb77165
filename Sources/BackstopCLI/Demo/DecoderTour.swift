import BackstopJSON
import Foundation

/// One payload of the tour, decoded with Foundation and then with BackstopJSON.
struct DemoExample {
    let title: String
    /// The payload as printed: `<E9>` stands for the byte 0xE9, `<TAB>` for a raw tab.
    let json: String
    let foundation: (Data) throws -> String
    let backstop: (Data) throws -> (String, [Repair])
    /// The app's line that decodes it with BackstopJSON.
    let code: String

    init<Model: Decodable, Plain: Decodable>(
        _ title: String, _ json: String, model: Model.Type, plain: Plain.Type,
        show: @escaping (Model) -> String
    ) {
        self.title = title
        self.json = json
        code = "let report = try ResilientJSONDecoder().decodeWithReport(\(Model.self).self, from: data)"
        foundation = { data in "\(try JSONDecoder().decode(Plain.self, from: data))" }
        backstop = { data in
            let report = try ResilientJSONDecoder().decodeWithReport(Model.self, from: data)
            return (show(report.value), report.repairs)
        }
    }

    /// The bytes sent: `json` with its `<E9>` and `<TAB>` markers turned into those raw bytes.
    var data: Data {
        let parts = json.replacingOccurrences(of: "<TAB>", with: "\t").components(separatedBy: "<E9>")
        return Data(parts.map { Array($0.utf8) }.joined(separator: [0xE9]))
    }

    func show(on terminal: Terminal) {
        let data = self.data
        terminal.line()
        terminal.line("▸ \(title)", .heading)
        terminal.line("  \(json)", .dim)
        terminal.line("  code: " + terminal.paint(code, .note))
        do {
            _ = try foundation(data)
            terminal.line("  Foundation's JSONDecoder: decoded", .good)
        } catch {
            terminal.line("  Foundation's JSONDecoder: " + terminal.paint(Self.summary(error), .bad))
        }
        do {
            let (value, repairs) = try backstop(data)
            terminal.line("  BackstopJSON (lenient):   " + terminal.paint(value, .good))
            for repair in repairs {
                terminal.line("    repair " + terminal.paint(repair.description, .note))
            }
        } catch {
            terminal.line("  BackstopJSON (lenient):   " + terminal.paint(Self.summary(error), .bad))
        }
    }

    static func summary(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "typeMismatch(\(type)) at \(JSONPath.string(context.codingPath))"
        case .valueNotFound(let type, let context):
            return "valueNotFound(\(type)) at \(JSONPath.string(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "keyNotFound(\"\(key.stringValue)\") at \(JSONPath.string(context.codingPath))"
        case .dataCorrupted(let context):
            return "dataCorrupted at \(JSONPath.string(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

extension DemoExample {
    static var all: [DemoExample] {
        [
            DemoExample(
                "A product whose numbers arrive as strings, with a field null and one missing",
                #"{"id":"42","name":"iPhone 17","price":"999.5","inStock":"true","stock":null}"#,
                model: Product.self, plain: Product.self,
                show: {
                    "Product(id: \($0.id), name: \($0.name), price: \($0.price), inStock: \($0.inStock), stock: \($0.stock), tags: \($0.tags))"
                }
            ),
            DemoExample(
                "A beverage the app has never heard of",
                #"{"name":"Shubham","favouriteBeverage":"Juice"}"#,
                model: Drinker.self, plain: PlainDrinker.self,
                show: { "Drinker(name: \($0.name), favouriteBeverage: .\($0.favouriteBeverage))" }
            ),
            DemoExample(
                "A list with one broken element",
                #"{"items":[{"id":1,"name":"Latte"},{"id":"two?","name":"Mocha"},{"id":3,"name":"Tea"}]}"#,
                model: Menu.self, plain: Menu.self,
                show: { "Menu(items: \($0.items.map { "\($0.id) \($0.name)" }))" }
            ),
            DemoExample(
                "A JavaScript backend cuts a string in the middle of an emoji",
                #"{"messages":[{"id":1,"text":"hi"},{"id":2,"text":"cut \ud83d"}]}"#,
                model: Inbox.self, plain: Inbox.self, show: Inbox.show
            ),
            DemoExample(
                "A legacy backend sends Latin-1 (the byte 0xE9, shown <E9>)",
                #"{"messages":[{"id":1,"text":"hi"},{"id":2,"text":"caf<E9>"}]}"#,
                model: Inbox.self, plain: Inbox.self, show: Inbox.show
            ),
            DemoExample(
                "JSON built by string concatenation, with a raw tab (shown <TAB>)",
                #"{"messages":[{"id":1,"text":"hi"},{"id":2,"text":"a<TAB>b"}]}"#,
                model: Inbox.self, plain: Inbox.self, show: Inbox.show
            ),
            DemoExample(
                "Python's json.dumps writes NaN and Infinity",
                #"{"readings":[{"id":1,"value":21.5},{"id":2,"value":NaN},{"id":3,"value":Infinity}]}"#,
                model: Sensor.self, plain: Sensor.self,
                show: { "Sensor(readings: [" + $0.readings.map { "\($0.id) \($0.value)" }.joined(separator: ", ") + "])" }
            ),
        ]
    }
}

struct Product: Decodable {
    let id: Int
    let name: String
    let price: Double
    let inStock: Bool
    let stock: Int
    let tags: [String]
}

enum Beverage: String, Decodable, UnknownCaseRepresentable {
    case coffee = "Coffee"
    case tea = "Tea"
    case unknown
    static var unknownCase: Beverage { .unknown }
}

struct Drinker: Decodable {
    let name: String
    let favouriteBeverage: Beverage
}

/// The same model with a plain enum, as most apps declare it today.
struct PlainDrinker: Decodable {
    enum PlainBeverage: String, Decodable {
        case coffee = "Coffee"
        case tea = "Tea"
    }
    let name: String
    let favouriteBeverage: PlainBeverage
}

struct Menu: Decodable {
    struct Item: Decodable {
        let id: Int
        let name: String
    }
    let items: [Item]
}

struct Inbox: Decodable {
    struct Message: Decodable {
        let id: Int
        let text: String
    }
    let messages: [Message]

    /// Texts quoted, so that U+FFFD and a tab show for what they are.
    static func show(_ inbox: Inbox) -> String {
        "Inbox(messages: [" + inbox.messages.map { "\($0.id) \($0.text.debugDescription)" }.joined(separator: ", ") + "])"
    }
}

struct Sensor: Decodable {
    struct Reading: Decodable {
        let id: Int
        let value: Double
    }
    let readings: [Reading]
}
