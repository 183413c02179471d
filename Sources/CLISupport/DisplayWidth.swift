#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How many terminal columns text takes: C's `wcwidth` (glibc's Unicode tables) in the `C.UTF-8` locale, scalar by
/// scalar. An East Asian wide character (日本語, a full-width form) takes 2, a combining mark 0, other printable
/// characters 1; a scalar `wcwidth` does not know counts 1. A text table measured in characters misaligned every row
/// after a Japanese file name.
///
/// The locale is made once and used only by this thread's calls (`uselocale`), so nothing else in the process
/// changes its character classes.
///
/// - Thread safety: any thread.
public enum DisplayWidth {
    /// The `C.UTF-8` character-type locale, or nil where the C library has none (then every scalar counts 1).
    nonisolated(unsafe) private static let utf8: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    /// C's `wcwidth`, looked up in the C library: its declaration is an X/Open extension the Glibc module does not
    /// import. Nil where the library has none (then every scalar counts 1).
    private static let wcwidth: (@convention(c) (wchar_t) -> Int32)? = {
        // RTLD_DEFAULT: the global symbol, wherever it was loaded from.
        guard let symbol = dlsym(nil, "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (wchar_t) -> Int32).self)
    }()

    /// The columns `text` takes on a terminal.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        // ASCII, the common case: one column a character.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        guard let utf8, let wcwidth else { return text.count }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        var columns = 0
        for scalar in text.unicodeScalars {
            let w = wcwidth(wchar_t(bitPattern: scalar.value))
            columns += w < 0 ? 1 : Int(w)
        }
        return columns
    }
}
