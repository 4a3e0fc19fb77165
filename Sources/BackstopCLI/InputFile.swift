import BackstopJSON
import Foundation

/// A file named on the command line, read whole only when it is a regular file no larger than a limit.
///
/// It is opened without waiting (a FIFO with no writer does not hold the command), then
/// checked as opened: a FIFO, a directory, a device or a socket each gets its own message, and
/// a file over the limit is refused before a byte is read. At most `limit + 1` bytes are ever
/// read, so a file that grows meanwhile is refused too.
enum InputFile {
    /// Why the file was not read: one line, with the path escaped.
    struct Unreadable: Error, CustomStringConvertible {
        /// The path as given.
        let path: String
        /// Why, without the path: `it is a directory, not a regular file`.
        let reason: String

        /// `cannot read 'PATH': REASON`
        var description: String { "cannot read \(quoted(path)): \(reason)" }
    }

    /// The most bytes a command reads from a file or a URL unless told otherwise: 16 MiB.
    static let defaultLimit = 16 << 20

    /// `path` as a message quotes it: in single quotes, with control and bidirectional
    /// characters escaped, so a file name cannot write to the terminal.
    static func quoted(_ path: String) -> String {
        "'" + UntrustedText.escaped(path) + "'"
    }

    /// The bytes of the regular file at `path`, at most `limit` of them.
    ///
    /// - Parameter limitName: How the user raises the limit, for the message (`--max-bytes`); nil when they cannot.
    static func contents(of path: String, limit: Int, limitName: String? = nil) throws(Unreadable) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            throw Unreadable(path: path, reason: reason)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if let kind = kind(of: status.st_mode) {
            throw Unreadable(path: path, reason: "it is \(kind), not a regular file")
        }
        let raise = limitName.map { " (\($0) raises it)" } ?? ""
        if status.st_size > limit {
            throw Unreadable(path: path, reason: "it is \(status.st_size) bytes, more than the limit of \(limit) bytes\(raise)")
        }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw Unreadable(path: path, reason: error.localizedDescription)
        }
        guard data.count <= limit else {
            throw Unreadable(path: path, reason: "it grew past the limit of \(limit) bytes\(raise)")
        }
        return data
    }

    /// What a file of `mode` is, when it is not a regular file.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "of an unknown kind"
        }
    }
}
