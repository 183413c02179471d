import Testing

@testable import JSONText

/// The one shape of the JSON text Enso writes for people (docs/cli.md): the CLI's `--json` and the pipeline's files.
@Suite struct JSONTextTests {
    /// `text` indented (`JSONText.indented`), from its bytes.
    func indented(_ text: String, depth: Int = 0) -> String { JSONText.indented(Array(text.utf8), depth: depth) }

    @Test func twoSpacesALevelAndAColonAndASpaceAfterAKey() {
        #expect(indented(#"{"a":1,"b":[true,null]}"#) == "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ]\n}")
    }

    @Test func emptyContainersStayOnOneLine() {
        #expect(indented("[]") == "[]")
        #expect(indented("{}") == "{}")
        #expect(indented(#"{"a":[],"b":{}}"#) == "{\n  \"a\": [],\n  \"b\": {}\n}")
    }

    /// What a string holds is written as it is, escaped quotes and backslashes included: its own `:`, `,`, braces and
    /// brackets are not the document's.
    @Test func aStringIsWrittenAsItIs() {
        let compact = #"{"a":"x \" : y, {z} [w]\\","b":"\\"}"#
        #expect(indented(compact) == "{\n  \"a\": \"x \\\" : y, {z} [w]\\\\\",\n  \"b\": \"\\\\\"\n}")
    }

    /// An element of an array printed on its own (`JSONOutput.printArray`) is indented as it would be inside it.
    @Test func anElementStartsAtItsDepth() {
        #expect(indented(#"{"a":[1]}"#, depth: 1) == "{\n    \"a\": [\n      1\n    ]\n  }")
        #expect(indented("[" + #"{"a":[1]}"# + "]") == "[\n  " + indented(#"{"a":[1]}"#, depth: 1) + "\n]")
    }
}
