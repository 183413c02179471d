import Foundation
import Testing

@testable import CLISupport

/// The one JSON writer of the CLI and its error object (docs/cli.md).
@Suite struct JSONOutputTests {
    struct Sample: Encodable {
        var path = "bells/b07.wav"
        var empty: [Int] = []
        var nested = ["b": [1, 2], "a": []]
        var text = "a \"quoted\", {braced} [bracketed]: line\nnext \\ end"
        var nothing: String? = nil
        var error = ErrorObject(code: "not-found", message: "x.wav: no such file", file: nil)

        enum CodingKeys: String, CodingKey { case path, empty, nested, text, nothing, error }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(path, forKey: .path)
            try c.encode(empty, forKey: .empty)
            try c.encode(nested, forKey: .nested)
            try c.encode(text, forKey: .text)
            try c.encode(nothing, forKey: .nothing)
            try c.encode(error, forKey: .error)
        }
    }

    @Test func indentedSortedWithoutEscapedSlashes() throws {
        let text = try JSONOutput.string(Sample())
        #expect(
            text == """
                {
                  "empty": [],
                  "error": {
                    "code": "not-found",
                    "file": null,
                    "message": "x.wav: no such file"
                  },
                  "nested": {
                    "a": [],
                    "b": [
                      1,
                      2
                    ]
                  },
                  "nothing": null,
                  "path": "bells/b07.wav",
                  "text": "a \\"quoted\\", {braced} [bracketed]: line\\nnext \\\\ end"
                }
                """)
        // The indentation changes whitespace outside strings only: the text parses to what the encoder wrote.
        let compact = try JSONOutput.encoder().encode(Sample())
        let a = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: compact) as? NSDictionary
        #expect(a != nil && a == b)
    }

    @Test func emptyContainersAndScalars() throws {
        #expect(try JSONOutput.string([Int]()) == "[]")
        #expect(try JSONOutput.string([String: Int]()) == "{}")
        #expect(try JSONOutput.string([[Int]()]) == "[\n  []\n]")
        #expect(try JSONOutput.string([Double.infinity, -.infinity]) == "[\n  \"inf\",\n  \"-inf\"\n]")
    }

    @Test func aFailureCarriesItsCodeAndFile() {
        let failure = CommandFailure("x.wav: no such file", exitCode: .inputError, code: "not-found", file: "x.wav")
        #expect(failure.errorObject == ErrorObject(code: "not-found", message: "x.wav: no such file", file: "x.wav"))
        #expect(CommandFailure("cannot read", exitCode: .inputError).code == "unreadable")
        #expect(CommandFailure("broke").code == "failure")
    }
}
