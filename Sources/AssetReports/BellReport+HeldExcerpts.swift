import AssetPipeline
import Synchronization

extension BellReport {
    /// A candidate's excerpt as its sketch holds it (``Sketch``): the samples while they may still be played, or
    /// nothing once ``HeldExcerpts`` has let them go. The sketch keeps the box either way, so the page still counts
    /// the candidate among those that have a sound.
    ///
    /// - Thread safety: any thread.
    final class HeldExcerpt: Sendable {
        private let samples: Mutex<Excerpt?>

        /// A box holding `excerpt`; nil: a candidate with a sound whose samples were never held.
        init(_ excerpt: Excerpt?) { samples = Mutex(excerpt) }

        /// The samples; nil once let go.
        var excerpt: Excerpt? { samples.withLock { $0 } }

        /// Lets the samples go (their memory is freed when no player is being made from them).
        func release() { samples.withLock { $0 = nil } }
    }

    /// The excerpts a run holds while its files are auditioned: those of its best ``capacity`` candidates so far
    /// in rank order (``BellAuditionResult/ranksBefore(_:_:)``), so the memory a report holds for its players does
    /// not grow with the number of files (0.58 MB a candidate at 48 kHz: 300 candidates held 170 MB, 40 000 would
    /// have held 23 GB).
    ///
    /// The page's players are the first ``Players/limit`` distinct sounds in rank order (``Players/chosen(_:groups:)``),
    /// and the groups of near-duplicates are known only once every file is in; so a run keeps four times as many:
    /// the players are the same as with every excerpt kept unless the best ``capacity`` candidates are fewer than
    /// ``Players/limit`` distinct sounds (more than three near-duplicates of each on average). Then the players go to
    /// the best of them, near-duplicates included, and the distinct sounds ranked lower play their files from disk
    /// like every card past the players (the page says so: ``Players/note(players:candidates:fromFiles:passedOver:)``).
    ///
    /// A candidate that ranks after the ``capacity`` best held so far makes no excerpt at all (``admits(_:)``); one
    /// that a better candidate pushes out lets its samples go (``HeldExcerpt/release()``). Candidates tied in rank
    /// (the same file given twice) are held together, so what is held does not depend on the order files finish.
    ///
    /// - Thread safety: any thread (one lock around the list of keys; the samples are made outside it).
    public final class HeldExcerpts: Sendable {
        /// The rank keys of a candidate: what ``BellAuditionResult/ranksBefore(_:_:)`` orders by.
        typealias Key = (verdict: BellAuditionVerdict, score: Double?, file: String)

        /// How many candidates' excerpts are held at most (more only when tied in rank at the last place).
        let capacity: Int
        /// Four times the players of a page: what a run holds unless told otherwise.
        public static let defaultCapacity = 4 * Players.limit
        private let held: Mutex<[(key: Key, excerpt: HeldExcerpt)]>

        /// A store for one run, holding the excerpts of its best `capacity` candidates (default: four times the
        /// players a page has).
        public init(capacity: Int = defaultCapacity) {
            precondition(capacity >= Players.limit, "fewer excerpts held (\(capacity)) than a page has players")
            self.capacity = capacity
            held = Mutex([])
        }

        /// Whether a candidate of rank keys `key` would be held now: fewer than ``capacity`` are held, or it ranks no
        /// later than the last of the best ``capacity``.
        func admits(_ key: Key) -> Bool {
            held.withLock { list in
                list.count < capacity || !BellAuditionResult.ranksBefore(list[capacity - 1].key, key)
            }
        }

        /// Holds `excerpt` for a candidate of rank keys `key`, letting go of those that now rank after the best
        /// ``capacity`` (`excerpt` itself among them, when others came first meanwhile).
        func hold(_ excerpt: HeldExcerpt, key: Key) {
            let dropped = held.withLock { list -> [HeldExcerpt] in
                let at = list.firstIndex { BellAuditionResult.ranksBefore(key, $0.key) } ?? list.endIndex
                list.insert((key, excerpt), at: at)
                guard list.count > capacity else { return [] }
                let last = list[capacity - 1].key
                let end = list[capacity...].firstIndex { BellAuditionResult.ranksBefore(last, $0.key) } ?? list.endIndex
                let out = list[end...].map(\.excerpt)
                list.removeSubrange(end...)
                return out
            }
            for d in dropped { d.release() }
        }

        /// How many excerpts are held now.
        var count: Int { held.withLock { $0.count } }
    }
}
