@_exported import BackstopJSON
// Contracts take `HTTPResponse` and errors carry `HTTPFields`; callers should not need a
// second import to use them.
@_exported import HTTPTypes
