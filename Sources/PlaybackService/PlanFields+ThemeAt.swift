import AudioCore
import AudioEngine
import ControlProtocol

extension PlanFields {
    /// One change of `themeAt`: the session frame its crossfade starts on (sat time, so a pause before it moves it
    /// later on the output, as it moves the bells), the theme (`nil`: silence) and the crossfade.
    struct ScheduledTheme: Equatable {
        var frame: FramePosition
        var theme: String?
        var crossfadeSeconds: Double
    }

    /// The `themeAt` changes at `rate`, sorted by frame (equal frames keep their order in the request); checked
    /// against the session's end `endFrame` (`nil`: open-ended).
    ///
    /// - Throws: `invalid-field` for `themeAt` naming the change and what is wrong with it: not an array of at most
    ///   ``SessionEngine/maximumTimedThemes`` objects, an `at` that is not a number of seconds from 0 or is at or
    ///   after the session end, a `theme` that is not a string or is empty, a `crossfade` outside ``AudioEngine/SessionPlan/themeCrossfade``.
    func themeAt(rate: SampleRate, endFrame: FramePosition?) throws(ProtocolError) -> [ScheduledTheme] {
        let key = Self.themeAtKey
        guard let value = values[key], value != .null else { return [] }
        guard let items = value.arrayValue else {
            throw .invalidField(key, "must be an array of {at, theme, crossfade}, not \(value.typeName)")
        }
        let limit = SessionEngine.maximumTimedThemes
        guard items.count <= limit else {
            throw .invalidField(key, "\(items.count) changes; a session holds at most \(limit)")
        }
        var changes: [ScheduledTheme] = []
        for (i, item) in items.enumerated() {
            guard let object = item.objectValue else {
                throw .invalidField(key, "element \(i) must be an object {at, theme, crossfade}, not \(item.typeName)")
            }
            let fields = Request(command: key, fields: object)
            let at: Double?
            let theme: String?
            let crossfade: Double?
            do {
                at = try fields.number(
                    ThemeAtMember.at.rawValue, in: 0...Double(FramePosition.max / 1_000_000), unit: "s")
                theme = try fields.assetName(ThemeAtMember.theme.rawValue, silenceAllowed: true)
                crossfade = try fields.number(
                    ThemeAtMember.crossfade.rawValue, in: SessionPlan.themeCrossfade.range, unit: "s")
            } catch {
                throw ProtocolError(.invalidField, "\(key)[\(i)].\(error.message)", field: key)
            }
            guard let at else { throw .invalidField(key, "element \(i) needs \"at\" (seconds from the start)") }
            guard let theme else {
                throw .invalidField(key, "element \(i) needs \"theme\" (an asset id, a sound file or \"none\")")
            }
            let frame = rate.frames(seconds: at)
            if let endFrame, frame >= endFrame {
                // Seconds to the millisecond, as the journal writes them (the end printed 76.12554166666666).
                let end = JournalExport.number(rate.seconds(frames: endFrame))
                throw .invalidField(
                    key, "element \(i): at \(JournalExport.number(at)) s is at or after the session's end (\(end) s)")
            }
            changes.append(
                ScheduledTheme(
                    frame: frame, theme: AssetName.isSilence(theme) ? nil : theme,
                    crossfadeSeconds: crossfade ?? SessionPlan.themeCrossfade.defaultValue))
        }
        // A stable sort: equal frames keep the request's order.
        return changes.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
            .map(\.element)
    }

    /// `themeAt` as a started plan echoes it: every change resolved (`at`, `theme` or `"none"`, `crossfade`).
    static func themeAtEcho(_ changes: [ScheduledTheme], rate: SampleRate) -> JSONValue {
        .array(
            changes.map {
                .object([
                    ThemeAtMember.at.rawValue: .number(rate.seconds(frames: $0.frame)),
                    ThemeAtMember.theme.rawValue: .string($0.theme ?? AssetName.silence),
                    ThemeAtMember.crossfade.rawValue: .number($0.crossfadeSeconds),
                ])
            })
    }
}
