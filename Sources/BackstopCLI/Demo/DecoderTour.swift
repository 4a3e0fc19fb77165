import BackstopJSON
import Foundation

/// One payload of the tour, decoded with Foundation and then with BackstopJSON.
struct DemoExample {
    let title: String
    let json: String
    let foundation: (Data) throws -> String
    let backstop: (Data) throws -> (String, [Repair])

    init<Model: Decodable, Plain: Decodable>(
        _ title: String, _ json: String, model: Model.Type, plain: Plain.Type,
        show: @escaping (Model) -> String
    ) {
        self.title = title
        self.json = json
        foundation = { data in "\(try JSONDecoder().decode(Plain.self, from: data))" }
        backstop = { data in
            let report = try ResilientJSONDecoder().decodeWithReport(Model.self, from: data)
            return (show(report.value), report.repairs)
        }
    }

    func show(on terminal: Terminal) {
        let data = Data(json.utf8)
        terminal.line()
        terminal.line("▸ \(title)", .heading)
        terminal.line("  \(json)", .dim)
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
    static var all: [DemoExample] { [
        DemoExample(
            "A product whose numbers arrive as strings, with a field null and one missing",
            #"{"id":"42","name":"iPhone 17","price":"999.5","inStock":"true","stock":null}"#,
            model: Product.self, plain: Product.self,
            show: { "Product(id: \($0.id), name: \($0.name), price: \($0.price), inStock: \($0.inStock), stock: \($0.stock), tags: \($0.tags))" }
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
    ] }
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
    case coffee = "Coffee", tea = "Tea", unknown
    static var unknownCase: Beverage { .unknown }
}

struct Drinker: Decodable {
    let name: String
    let favouriteBeverage: Beverage
}

/// The same model with a plain enum, as most apps declare it today.
struct PlainDrinker: Decodable {
    enum PlainBeverage: String, Decodable { case coffee = "Coffee", tea = "Tea" }
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
