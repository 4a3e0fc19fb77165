import Foundation

// The small payloads apps decode most, one call at a time: a call's setup weighs more than its
// parsing here, so these measure what the corpus files cannot.

/// An 88-byte object with three fields the model reads and one it ignores.
package struct SmallUser: Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var email: String

    package static let json = Data(#"{"id":4821,"name":"Ada Lovelace","email":"ada@example.com","avatar":"https://e.c/a.png"}"#.utf8)
}

/// A 1 kB object: a profile with nested objects, an array, optionals, numbers and booleans.
package struct Profile: Codable, Equatable, Sendable {
    struct Address: Codable, Equatable, Sendable {
        var street: String
        var city: String
        var postalCode: String
        var country: String
    }

    struct Settings: Codable, Equatable, Sendable {
        var language: String
        var timeZone: String
        var newsletter: Bool
        var notifications: [String: Bool]
    }

    var id: Int
    var username: String
    var displayName: String
    var email: String
    var phone: String?
    var verified: Bool
    var premium: Bool
    var followers: Int
    var following: Int
    var rating: Double
    var balance: Double
    var bio: String?
    var website: String?
    var createdAt: String
    var updatedAt: String
    var roles: [String]
    var address: Address
    var settings: Settings
    var lastSeenIP: String?
    var referrer: String?

    package static let json = Data(
        #"""
        {"id":1048576,"username":"ada.lovelace","displayName":"Ada Lovelace","email":"ada@example.com",\#
        "phone":"+44 20 7946 0958","verified":true,"premium":false,"followers":18342,"following":211,\#
        "rating":4.87,"balance":1250.75,"bio":"Analyst of engines, writer of the first published program. \#
        Enjoys poetical science, mathematics and long walks in the countryside.","website":"https://example.com/ada",\#
        "createdAt":"2019-03-14T09:26:53Z","updatedAt":"2026-11-24T20:06:50Z","roles":["member","editor","beta"],\#
        "address":{"street":"12 St James's Square","city":"London","postalCode":"SW1Y 4JH","country":"GB"},\#
        "settings":{"language":"en-GB","timeZone":"Europe/London","newsletter":true,\#
        "notifications":{"mentions":true,"follows":false,"messages":true,"digest":false}},\#
        "lastSeenIP":null,"referrer":null,"avatar":"https://cdn.example.com/avatars/1048576/large.png",\#
        "badges":[{"id":1,"name":"Early adopter"},{"id":7,"name":"Top contributor"}],\#
        "stats":{"posts":482,"comments":3120,"likes":18877}}
        """#.utf8)
}

/// The envelope of ``EnvelopePayload`` with 10 items, as one page of a list endpoint.
package enum SmallEnvelope {
    package static let itemCount = 10
    package static let json = Data(EnvelopePayload.json(dirty: false, count: itemCount).utf8)
    package static var expected: Envelope {
        Envelope(code: 200, msg: "OK", data: EnvelopeData(items: EnvelopePayload.items(count: itemCount)))
    }
}
