import AudioCore
import AudioDSP
import Dispatch
import Foundation
import Synchronization

/// "More like this": candidates ranked by their likeness distance to a reference (`enso bells similar`,
/// `enso loops similar`; docs/similarity.md).
///
/// - Thread safety: pure functions; ``rank(reference:candidates:kind:progress:)`` runs files in parallel itself.
/// - Real-time safe: no.
public enum LikenessSearch {
    /// How many of the components that differ most a row names.
    public static let componentsShown = 3

    /// One candidate's row: its rank (1 = the most alike), its distance to the reference in JNDs, whether it is a
    /// near-duplicate, and the components that differ most; or an error for a file that cannot be measured (ranked
    /// last, in the order given).
    public struct Row: Sendable, Codable, Equatable {
        public var rank: Int
        public var file: String
        @Nullable public var distance: Double?
        @Nullable public var nearDuplicate: Bool?
        /// The ``componentsShown`` components that differ most, most first.
        public var components: [LikenessDistance.Component]
        @Nullable public var error: RowError?
    }

    /// Ranks `candidates` by their distance to `reference`, nearest first (ties keep the order given); files that
    /// cannot be measured come last with their error.
    ///
    /// - Parameter progress: called once per finished candidate, from any thread.
    public static func rank(
        reference: LikenessSignature, candidates: [String], kind: LikenessSignature.Kind,
        progress: (@Sendable (String) -> Void)? = nil
    ) -> [Row] {
        let slots = Mutex([Result<LikenessSignature, EnsoError>?](repeating: nil, count: candidates.count))
        DispatchQueue.concurrentPerform(iterations: candidates.count) { i in
            let r = Result { () throws(EnsoError) in try LikenessFile.signature(path: candidates[i], kind: kind) }
            slots.withLock { $0[i] = r }
            progress?(candidates[i])
        }
        let measured = slots.withLock { $0.map { $0! } }
        return rank(reference: reference, candidates: Array(zip(candidates, measured)))
    }

    /// Ranks signatures already measured (or their errors) by their distance to `reference`.
    public static func rank(
        reference: LikenessSignature, candidates: [(file: String, signature: Result<LikenessSignature, EnsoError>)]
    ) -> [Row] {
        var rows: [Row] = []
        var failed: [Row] = []
        for (file, measured) in candidates {
            switch measured {
            case .success(let s):
                let d = LikenessDistance(reference, s)
                rows.append(
                    Row(
                        rank: 0, file: file, distance: d.distance, nearDuplicate: d.nearDuplicate,
                        components: Array(d.components.prefix(componentsShown)), error: nil))
            case .failure(let e):
                failed.append(
                    Row(
                        rank: 0, file: file, distance: nil, nearDuplicate: nil, components: [],
                        error: RowError(code: e.name, message: e.message, file: file)))
            }
        }
        // A stable sort: equal distances keep the order given.
        let ranked =
            rows.enumerated().sorted {
                ($0.element.distance!, $0.offset) < ($1.element.distance!, $1.offset)
            }
            .map(\.element) + failed
        return ranked.enumerated().map { i, r in
            var r = r
            r.rank = i + 1
            return r
        }
    }
}
