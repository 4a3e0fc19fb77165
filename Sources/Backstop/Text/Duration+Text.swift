extension Duration {
    /// The duration as engineers' text reads it, rounded to what a reader can use: `250 ms`
    /// under a second, `1.5 s` under ten, `15 s` from there; never Swift's own
    /// `14.997206732999999 seconds`. Negative durations read as `0 ms`.
    var roundedText: String {
        let (seconds, attoseconds) = components
        let milliseconds = max(0, seconds * 1000 + Int64((Double(attoseconds) / 1e15).rounded()))
        switch milliseconds {
        case ..<1000: return "\(milliseconds) ms"
        case ..<9950:
            let tenths = (milliseconds + 50) / 100
            return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
        default: return "\((milliseconds + 500) / 1000) s"
        }
    }
}
