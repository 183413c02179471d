import JSONText
import Testing

/// One spelling for every number a message quotes (``NumberText/plain(_:)``): the plan's, the protocol's and the CLI's
/// own options' messages alike.
@Suite struct NumberTextTests {
    static let cases: [(Double, String)] = [
        (0, "0"), (3, "3"), (-3, "-3"), (0.5, "0.5"), (86_400, "86400"), (21.575, "21.575"), (1e-7, "1e-07"),
        (999_999_999_999_999, "999999999999999"),
        // From 10^15 up, one form: exponent, shortest digits (Swift writes 10^15 ..< 10^16 positionally).
        (1e15, "1e+15"), (9e15, "9e+15"), (-9e15, "-9e+15"), (1_234_567_890_123_456, "1.234567890123456e+15"),
        (1e16, "1e+16"), (1.5e20, "1.5e+20"), (1e308, "1e+308"),
        (.infinity, "inf"), (-.infinity, "-inf"),
    ]

    @Test func numbersReadOneWayWhateverTheirSize() {
        for (value, text) in Self.cases { #expect(NumberText.plain(value) == text, "\(value)") }
        #expect(NumberText.plain(.nan) == "nan")
    }
}
