/// Every scenario `enso-bench` knows, in the order the tables print.
///
/// To add scenarios: write `Scenarios/<Topic>Scenarios.swift` with an `enum <Topic>Scenarios` whose
/// `static var all: [Benchmark]` builds them (see DecodeScenarios.swift), then add one line below.
enum ScenarioList {
    static var all: [Benchmark] {
        DecodeScenarios.all
            + ResampleScenarios.all
            + StartupScenarios.all
            + LoopScenarios.all
            + BellScenarios.all
            + BatchScenarios.all
            + RenderScenarios.all
            + PlaybackBenchmarks.all
            + ServeLoadingScenarios.all
            + LongAmbientScenarios.all
    }
}
