import AudioCore
import CSndFile

// Loop points, cue points and format names from an open libsndfile handle.

/// The header's loops, and a warning for each one that is ignored because its end is not after its start (it used to
/// be dropped silently). A loop past the file's end is kept: the callers report that it does not fit.
func readLoops(_ h: SndfileHandle) -> (loops: [LoopRegion], warnings: [String]) {
    var inst = SF_INSTRUMENT()
    let ok = system_sf_command(h, Int32(SFC_GET_INSTRUMENT), &inst, Int32(MemoryLayout<SF_INSTRUMENT>.size))
    guard ok == Int32(SF_TRUE) else { return ([], []) }
    var loops: [LoopRegion] = []
    var warnings: [String] = []
    for (i, loop) in SndfileInstrument.loops(of: &inst).enumerated() where loop.mode != Int32(SF_LOOP_NONE) {
        if loop.end <= loop.start {
            warnings.append("loop \(i + 1) (\(loop.start)..<\(loop.end)) ignored: its end is not after its start")
        } else {
            loops.append(LoopRegion(start: FramePosition(loop.start), end: FramePosition(loop.end)))
        }
    }
    return (loops, warnings)
}

func readCues(_ h: SndfileHandle) -> [CuePoint] {
    var count: UInt32 = 0
    guard system_sf_command(h, Int32(SFC_GET_CUE_COUNT), &count, Int32(MemoryLayout<UInt32>.size)) != 0,
        count > 0
    else { return [] }
    var cues = SF_CUES()
    guard system_sf_command(h, Int32(SFC_GET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == Int32(SF_TRUE) else {
        return []
    }
    let n = Int(min(cues.cue_count, 100))
    return withUnsafeBytes(of: &cues.cue_points) { raw -> [CuePoint] in
        let points = raw.bindMemory(to: SF_CUE_POINT.self)
        return (0..<n).map { i in
            var p = points[i]
            let name = withUnsafeBytes(of: &p.name) { bytes -> String in
                let chars = bytes.prefix { $0 != 0 }
                return String(decoding: chars, as: UTF8.self)
            }
            return CuePoint(id: p.indx, position: FramePosition(p.sample_offset), name: name)
        }
    }
}

/// The container's name: libsndfile's own constant without its `SF_FORMAT_` prefix (`NIST` is SPHERE), for every
/// major format libsndfile 1.2 defines; a format added later prints its raw code (`0x240000`).
func formatName(major: Int32) -> String {
    switch Int(major) {
    case Int(SF_FORMAT_WAV): return "WAV"
    case Int(SF_FORMAT_AIFF): return "AIFF"
    case Int(SF_FORMAT_AU): return "AU"
    case Int(SF_FORMAT_RAW): return "RAW"
    case Int(SF_FORMAT_PAF): return "PAF"
    case Int(SF_FORMAT_SVX): return "SVX"
    case Int(SF_FORMAT_NIST): return "NIST"
    case Int(SF_FORMAT_VOC): return "VOC"
    case Int(SF_FORMAT_IRCAM): return "IRCAM"
    case Int(SF_FORMAT_W64): return "W64"
    case Int(SF_FORMAT_MAT4): return "MAT4"
    case Int(SF_FORMAT_MAT5): return "MAT5"
    case Int(SF_FORMAT_PVF): return "PVF"
    case Int(SF_FORMAT_XI): return "XI"
    case Int(SF_FORMAT_HTK): return "HTK"
    case Int(SF_FORMAT_SDS): return "SDS"
    case Int(SF_FORMAT_AVR): return "AVR"
    case Int(SF_FORMAT_WAVEX): return "WAVEX"
    case Int(SF_FORMAT_SD2): return "SD2"
    case Int(SF_FORMAT_FLAC): return "FLAC"
    case Int(SF_FORMAT_CAF): return "CAF"
    case Int(SF_FORMAT_WVE): return "WVE"
    case Int(SF_FORMAT_OGG): return "OGG"
    case Int(SF_FORMAT_MPC2K): return "MPC2K"
    case Int(SF_FORMAT_RF64): return "RF64"
    case Int(SF_FORMAT_MPEG): return "MPEG"
    default: return "0x" + String(major, radix: 16)
    }
}

/// The encoding's name, as ``formatName(major:)`` names containers, for every subtype libsndfile 1.2 defines.
func subtypeName(minor: Int32) -> String {
    switch Int(minor) {
    case Int(SF_FORMAT_PCM_S8): return "PCM_S8"
    case Int(SF_FORMAT_PCM_U8): return "PCM_U8"
    case Int(SF_FORMAT_PCM_16): return "PCM_16"
    case Int(SF_FORMAT_PCM_24): return "PCM_24"
    case Int(SF_FORMAT_PCM_32): return "PCM_32"
    case Int(SF_FORMAT_FLOAT): return "FLOAT"
    case Int(SF_FORMAT_DOUBLE): return "DOUBLE"
    case Int(SF_FORMAT_ULAW): return "ULAW"
    case Int(SF_FORMAT_ALAW): return "ALAW"
    case Int(SF_FORMAT_IMA_ADPCM): return "IMA_ADPCM"
    case Int(SF_FORMAT_MS_ADPCM): return "MS_ADPCM"
    case Int(SF_FORMAT_GSM610): return "GSM610"
    case Int(SF_FORMAT_VOX_ADPCM): return "VOX_ADPCM"
    case Int(SF_FORMAT_NMS_ADPCM_16): return "NMS_ADPCM_16"
    case Int(SF_FORMAT_NMS_ADPCM_24): return "NMS_ADPCM_24"
    case Int(SF_FORMAT_NMS_ADPCM_32): return "NMS_ADPCM_32"
    case Int(SF_FORMAT_G721_32): return "G721_32"
    case Int(SF_FORMAT_G723_24): return "G723_24"
    case Int(SF_FORMAT_G723_40): return "G723_40"
    case Int(SF_FORMAT_DWVW_12): return "DWVW_12"
    case Int(SF_FORMAT_DWVW_16): return "DWVW_16"
    case Int(SF_FORMAT_DWVW_24): return "DWVW_24"
    case Int(SF_FORMAT_DWVW_N): return "DWVW_N"
    case Int(SF_FORMAT_DPCM_8): return "DPCM_8"
    case Int(SF_FORMAT_DPCM_16): return "DPCM_16"
    case Int(SF_FORMAT_VORBIS): return "VORBIS"
    case Int(SF_FORMAT_OPUS): return "OPUS"
    case Int(SF_FORMAT_ALAC_16): return "ALAC_16"
    case Int(SF_FORMAT_ALAC_20): return "ALAC_20"
    case Int(SF_FORMAT_ALAC_24): return "ALAC_24"
    case Int(SF_FORMAT_ALAC_32): return "ALAC_32"
    case Int(SF_FORMAT_MPEG_LAYER_I): return "MPEG_LAYER_I"
    case Int(SF_FORMAT_MPEG_LAYER_II): return "MPEG_LAYER_II"
    case Int(SF_FORMAT_MPEG_LAYER_III): return "MPEG_LAYER_III"
    default: return "0x" + String(minor, radix: 16)
    }
}
