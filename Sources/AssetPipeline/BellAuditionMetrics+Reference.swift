import Foundation

extension BellAuditionMetrics {
    /// A clean, bell-like candidate's measures: the audition of the bundled `Assets/bells/singing-bowl.flac` (verdict
    /// `keep`, no defect, no note). The judgment rules' probes (``RuleThreshold/probe``) start from it and move one
    /// quantity across a threshold, so each rule is evaluated on hand-built measures, with no audio.
    public static let reference: BellAuditionMetrics = {
        let json = """
            {"attack": 0.0017775238896362306, "beatDepth": 9.185134873629485, "beatRate": 1.8028846153846154, \
            "centroid": 286.8041720755682, "channelBalance": -0.8306226703693665, "channelCorrelation": \
            0.9992162287876053, "channels": 2, "clipRuns": 0, "clippedSamples": 0, "cutLevel": -77.10626279887383, \
            "d20": 3.8975, "d40": 7.862500000000001, "d60": 12.5575, "dcOffset": 7.966955502827962e-06, "duration": \
            16, "earlyCentroid": 329.0726492058583, "edt": 12.63032390277976, "endLevel": -77.10626279887383, \
            "endSlope": -7.688373005585712, "endsWithFade": false, "enteringNotes": 0, "entryTimes": [], \
            "inharmonicity": 0.5859600159909548, "leadingSilence": 0, "longestClipRun": 0, "loudness": \
            {"integrated": -21.99999806923054, "integratedPadded": -21.335100194081935, "maxMomentary": \
            -14.56032104917299, "maxShortTerm": -19.77938234820532, "range": 21.686950560259977, "samplePeak": \
            -7.925861205388261, "truePeak": -7.91183613248979}, "newNotes": 0, "onsetTimes": [0], "onsets": 1, \
            "partialRatios": [1, 2.8282061941574494, 5.414166210148404], "partials": [{"frequency": \
            233.62723377850637, "level": 0, "t60": 12.975035058621787}, {"frequency": 660.7459896962422, "level": \
            -9.779228616763199, "t60": 6.634360924491999}, {"frequency": 1264.896674894031, "level": \
            -21.187484844021967, "t60": 4.737175823352286}, {"frequency": 2044.1073682366339, "level": \
            -29.289409383918127, "t60": 3.437600727907088}], "peakLevel": -14.64010666749181, "peakTime": 0.035, \
            "ringingAtEnd": false, "sampleRate": 48000, "strikePitch": 233.62723377850637, "strikes": 1, \
            "strongPartials": 3, "t20": 12.882709477970554, "t30": 12.899419993596453, "tonality": \
            0.9999977876222974, "truncatedStream": false}
            """
        do {
            return try JSONDecoder().decode(BellAuditionMetrics.self, from: Data(json.utf8))
        } catch {
            preconditionFailure("the reference bell's measures do not decode: \(error)")
        }
    }()
}
