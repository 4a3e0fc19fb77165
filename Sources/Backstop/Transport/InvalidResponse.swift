/// A response URLSession delivered that HTTP cannot carry, such as a status code over 999.
struct InvalidResponse: Error, CustomStringConvertible {
    let statusCode: Int?
    var description: String {
        statusCode.map { "the response's status code \($0) is not an HTTP status" } ?? "the response was not HTTP"
    }
}
