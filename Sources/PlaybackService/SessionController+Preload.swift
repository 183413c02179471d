import AssetPipeline
import AudioCore
import AudioEngine
import ControlProtocol

extension SessionController {
    /// What the server loads on its worker before it runs `command`, so the command finds it ready.
    enum Preload {
        /// An engine asset, for `start`, `set`, `strike` or `plan`.
        case asset(AssetSource)
        /// A pack entry's summary, for `assets`.
        case summary(AssetSource)
    }

    /// The loads `command` would do on the control thread that are not cached yet: the assets `start` loads (bell,
    /// interval bell when the plan rings one, ambient, the `themeAt` themes) at the rate the last session's output
    /// gave (the rate asked for before any), a `prefetch`'s bells and themes as `start` would load them, a `set`'s theme and a `strike`'s bell at the session's rate, a `plan`'s
    /// bells and a `preview`'s sound at ``preferredRate``, the summaries `assets` shows. A command that will fail
    /// before it loads (a start while a session plays, a strike while paused, a plan that does not validate) needs
    /// none; a reference that does not resolve is left to the command, which reports it.
    ///
    /// Mirrors what those commands load: one it misses is still loaded, on the control thread
    /// (``AssetLibrary/controlThreadLoads``), so the server stays correct and only slower.
    func preloads(for command: ControlCommand, startRate: SampleRate?) -> [Preload] {
        var wanted: [AssetSource] = []
        func want(_ reference: String?, _ kind: AssetPack.Kind, _ rate: SampleRate, seamFix: Bool = true) {
            guard let reference, !(kind == .soundscape && AssetName.isSilence(reference)) else { return }
            if let source = try? assets.source(reference, kind: kind, rate: rate, field: "", seamFix: seamFix) {
                wanted.append(source)
            }
        }
        let playing = session.flatMap { $0.ended ? nil : $0 }
        switch command {
        case .start(let fields):
            guard playing == nil, let plan = try? fields.plan() else { return [] }
            let sources = startSources(fields, plan: plan, rate: startRate ?? preferredRate)
            // A plan over the memory bound is refused before anything is decoded.
            guard (try? assets.admit(sources, what: "")) != nil else { return [] }
            wanted = sources.map(\.source)
        case .set(let fields):
            guard let s = playing else { return [] }
            want(fields.theme, .soundscape, s.rate, seamFix: s.seamFix)
            guard (try? assets.admit(wanted.map { ($0, "theme") }, what: "")) != nil else { return [] }
        case .strike(let bell):
            guard let s = playing, s.canStrike else { return [] }
            want(bell, .bell, s.rate)
            guard (try? assets.admit(wanted.map { ($0, "bell") }, what: "")) != nil else { return [] }
        case .plan(let fields):
            guard let plan = try? fields.plan() else { return [] }
            want(plan.bell, .bell, preferredRate)
            if plan.hasIntervals { want(plan.intervalBell, .bell, preferredRate) }
        case .preview(let fields):
            guard playing == nil else { return [] }
            switch fields.sound {
            case .bell(let bell): want(bell, .bell, preferredRate)
            case .theme(let theme, _): want(theme, .soundscape, preferredRate)
            }
        case .prefetch(let fields):
            // As `start` would load them: at its rate, themes seam-fixed unless asked not to.
            let rate = startRate ?? startLoadRate
            for bell in fields.bells { want(bell, .bell, rate) }
            for theme in fields.themes { want(theme, .soundscape, rate, seamFix: fields.seamFix) }
        case .assets:
            return assets.unsummarized.map { .summary($0) }
        default:
            return []
        }
        var seen = Set<AssetSource>()
        return wanted.filter { assets.needsLoading($0) && seen.insert($0).inserted }.map { .asset($0) }
    }

    /// What `start` with `fields` loads at `rate`, each with its field: the bell, the interval bell when the plan
    /// rings one, the ambient and the `themeAt` themes (the session's end is checked when it starts; the themes are
    /// the same whatever it is). A reference that does not resolve is left out: the start reports it.
    func startSources(
        _ fields: PlanFields, plan: SessionPlan, rate: SampleRate
    ) -> [(source: AssetSource, field: String)] {
        var out: [(source: AssetSource, field: String)] = []
        let seamFix = fields.seamFix ?? true
        func add(_ reference: String?, _ kind: AssetPack.Kind, _ field: String) {
            guard let reference, !(kind == .soundscape && AssetName.isSilence(reference)) else { return }
            // Bells are loaded with the default (the fix touches themes only, but it is part of the cache key).
            let fix = kind == .bell || seamFix
            if let source = try? assets.source(reference, kind: kind, rate: rate, field: field, seamFix: fix) {
                out.append((source, field))
            }
        }
        add(plan.bell, .bell, "bell")
        if plan.hasIntervals { add(plan.intervalBell, .bell, "intervalBell") }
        add(plan.ambient, .soundscape, "ambient")
        for change in (try? fields.themeAt(rate: rate, endFrame: nil)) ?? [] {
            add(change.theme, .soundscape, PlanFields.themeAtKey)
        }
        return out
    }
}
