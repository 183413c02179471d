import AudioCore

/// An ALSA PCM that can play: its name (what `--device` takes) and its description lines.
public struct PlaybackDevice: Sendable, Equatable, Codable {
    /// The name to open (`default`, `pulse`, `hw:CARD=PCH,DEV=0`, `null`).
    public var name: String
    /// The description ALSA gives, one entry per line (card, device, what it is for).
    public var description: [String]

    /// Every playback PCM ALSA knows, in ALSA's order, as `aplay -L` lists them.
    ///
    /// The corresponding C function is `snd_device_name_hint` (interface `pcm`); capture-only PCMs
    /// (`IOID` = `Input`) are left out.
    ///
    /// - Throws: ``EnsoError`` of kind `failure` when ALSA cannot read its configuration.
    public static func all() throws(EnsoError) -> [PlaybackDevice] {
        let (hints, rc) = alsa_device_name_hints(interface: "pcm")
        guard rc == 0 else {
            throw EnsoError(.failure, "cannot list ALSA devices: \(alsa_strerror(rc))", code: rc)
        }
        return hints.filter { $0.ioid == nil || $0.ioid == "Output" }.map { hint in
            let lines = (hint.description ?? "").split(separator: "\n", omittingEmptySubsequences: true).map(
                String.init)
            return PlaybackDevice(name: hint.name, description: lines)
        }
    }
}
