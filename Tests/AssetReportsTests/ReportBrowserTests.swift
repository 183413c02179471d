import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline
@testable import AssetReports

/// Headless Chromium (Debian's) opening a report as a curator would.
///
/// ``check(_:)`` loads the page once as written (no console message allowed) and once with a checking script
/// appended, which lists every `src`/`href` that points outside the file, the order of the cards, and plays every
/// `<audio>` to `canplaythrough`; ``screenshots(_:name:height:)`` keeps full-page screenshots (wide and light,
/// narrow and dark) under `out/report-screenshots/` as test artifacts.
struct ReportBrowser {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `out/report-screenshots` of the package.
    static let artifacts: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let dir = root + "/out/report-screenshots"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    static let common = [
        "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", "--mute-audio",
        "--hide-scrollbars", "--autoplay-policy=no-user-gesture-required", "--no-first-run",
    ]

    /// What the checking script found.
    struct Findings: Decodable {
        struct Audio: Decodable {
            var state: String
            var duration: Double?
        }
        var external: [String]
        var cards: [String]
        var audio: [Audio]
        var errors: [String]
        var original: Bool
        var height: Int
    }

    /// Appended before `</body>` of a copy of the page.
    static let script = """
        <script>
        (function(){
          var out={external:[],cards:[],audio:[],errors:[],original:false,height:0};
          window.addEventListener('error',function(e){out.errors.push(String(e.message));});
          function outside(v){return v!==null&&!/^\\s*(data:|#)/.test(v);}
          document.querySelectorAll('*').forEach(function(el){
            ['src','href','xlink:href','poster','srcset','action','data','background'].forEach(function(a){
              var v=el.getAttribute(a);if(outside(v))out.external.push(el.tagName+' '+a+'='+String(v).slice(0,80));});
            var st=el.getAttribute('style');if(st&&/url\\(/.test(st))out.external.push(el.tagName+' style url()');
          });
          [].forEach.call(document.styleSheets,function(s){[].forEach.call(s.cssRules,function(r){
            if(/url\\(|@import/.test(r.cssText))out.external.push('css '+r.cssText.slice(0,80));});});
          out.cards=[].map.call(document.querySelectorAll('section.card'),function(c){
            return c.className.replace('card','').trim();});
          var audios=[].slice.call(document.querySelectorAll('audio'));var pending=audios.length;
          function done(){
            document.dispatchEvent(new KeyboardEvent('keydown',{key:'o'}));
            out.original=document.body.classList.contains('original-level');
            out.height=document.documentElement.scrollHeight;
            var pre=document.createElement('pre');pre.id='enso-check';pre.textContent=JSON.stringify(out);
            document.body.appendChild(pre);
          }
          if(!pending)done();
          audios.forEach(function(a){
            var rec={state:'pending'};out.audio.push(rec);var over=false;
            function fin(s){if(over)return;over=true;rec.state=s;rec.duration=a.duration;if(--pending===0)done();}
            a.addEventListener('canplaythrough',function(){fin('canplaythrough');},{once:true});
            a.addEventListener('error',function(){fin('error '+(a.error?a.error.code:''));},{once:true});
            a.preload='auto';a.load();
          });
        })();
        </script>
        """

    /// Loads `page`: no console message as written; then the checking script's findings.
    static func check(_ page: String) throws -> Findings {
        let plain = try run(common + ["--dump-dom", "file://\(page)"])
        let console = plain.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(console.isEmpty, "console of \(page): \(console)")
        return try probe(page, script: script, as: Findings.self)
    }

    /// Loads a copy of `page` with `script` appended before `</body>` (no console message allowed) and decodes what
    /// the script leaves as JSON in `<pre id="enso-check">`.
    static func probe<T: Decodable>(_ page: String, script: String, as: T.Type) throws -> T {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let probe = page + ".check.html"
        defer { try? FileManager.default.removeItem(atPath: probe) }
        try html.replacingOccurrences(of: "</body>", with: script + "</body>").write(
            toFile: probe, atomically: false, encoding: .utf8)
        let checked = try run(
            common + ["--window-size=1280,800", "--virtual-time-budget=20000", "--dump-dom", "file://\(probe)"])
        let probeConsole = checked.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(probeConsole.isEmpty, "console with the check: \(probeConsole)")
        let json = try #require(
            checked.stdout.components(separatedBy: "<pre id=\"enso-check\">").dropFirst().first?
                .components(separatedBy: "</pre>").first,
            "the check did not finish (an <audio> never reached canplaythrough?)")
        let unescaped = json.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(T.self, from: Data(unescaped.utf8))
    }

    /// Full-page screenshots of `page` (1280 px in the light scheme, 390 px in the dark one), kept as
    /// `out/report-screenshots/NAME-wide.png` and `NAME-narrow-dark.png`.
    @discardableResult
    static func screenshots(_ page: String, name: String, height: Int) throws -> [String] {
        let shots = [
            ("\(artifacts)/\(name)-wide.png", ["--window-size=1280,\(min(max(height, 600), 16_000))"]),
            (
                "\(artifacts)/\(name)-narrow-dark.png",
                [
                    "--window-size=390,\(min(max(height * 3, 800), 16_000))",
                    "--force-dark-mode", "--blink-settings=preferredColorScheme=0",
                ]
            ),
        ]
        let processes = try shots.map { path, flags in
            try start(common + flags + ["--screenshot=\(path)", "file://\(page)"])
        }
        for p in processes { _ = try p.wait() }
        for (path, _) in shots {
            let png = try #require(FileManager.default.contents(atPath: path), "no screenshot \(path)")
            #expect(png.count > 10_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        return shots.map(\.0)
    }

    /// A started Chromium whose output is read on other threads; `wait(timeout:)` returns it.
    static func start(_ args: [String]) throws -> ToolRunner.Running {
        try ToolRunner.Running(ReportBrowser.chromium!, args)
    }
    static func run(_ args: [String]) throws -> ToolRunner.Result { try start(args).wait() }
}

@Suite(.enabled(if: ReportBrowser.chromium != nil, "needs Debian's chromium (make deps installs it)"))
struct ReportBrowserTests {
    @Test func loopReportOfABadSetLoadsPlaysAndPutsFailuresFirst() throws {
        let dir = ToolRunner.temporaryDirectory("loop-report-browser")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = "\(dir)/loops.html"
        try ReportPage.write(LoopReport.html(results: LoopReportFixtures.badSet()), to: page)
        let found = try ReportBrowser.check(page)
        #expect(found.external.isEmpty, "outside the file: \(found.external)")
        #expect(found.errors.isEmpty, "\(found.errors)")
        #expect(found.cards == ["fail", "error", "pass", "pass"], "\(found.cards)")
        // Half the loop each side of the seam for these short loops (2 s at most): cut, seamless, quiet.
        #expect(found.audio.map(\.state) == ["canplaythrough", "canplaythrough", "canplaythrough"])
        for (a, seconds) in zip(found.audio, [2.0026, 3, 3]) { #expect(abs((a.duration ?? 0) - seconds) < 0.01) }
        #expect(found.original, "the O key does not switch to the original level")
        try ReportBrowser.screenshots(page, name: "loops-bad-set", height: found.height)
    }

    @Test func assetReportOfABadPackLoadsPlaysAndPutsFailuresFirst() throws {
        let dir = ToolRunner.temporaryDirectory("asset-report-browser")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try BadPack.make(in: dir)
        let page = "\(dir)/assets.html"
        let (checked, sketches) = AssetCheck.runForReport(directory: dir)
        try ReportPage.write(checked.html(sketches: sketches), to: page)
        let found = try ReportBrowser.check(page)
        #expect(found.external.isEmpty, "outside the file: \(found.external)")
        #expect(found.errors.isEmpty, "\(found.errors)")
        #expect(found.cards == ["fail", "fail", "fail"], "\(found.cards)")
        #expect(found.audio.map(\.state) == ["canplaythrough", "canplaythrough", "canplaythrough"])
        #expect(found.original)
        try ReportBrowser.screenshots(page, name: "assets-bad-pack", height: found.height)
    }

    @Test func bellReportOfABadSetLoadsPlaysAndRanks() throws {
        let (dir, page, _) = try BellReportTests.makeReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let found = try ReportBrowser.check(page)
        #expect(found.external.isEmpty, "outside the file: \(found.external)")
        #expect(found.errors.isEmpty, "\(found.errors)")
        // Rank order: keep, fix, listen, reject, error; the clipped, cut and chime candidates among the rejects.
        let order = ["keep", "fix", "listen", "reject", "error"]
        let ranks = found.cards.map { order.firstIndex(of: $0) ?? 9 }
        #expect(ranks == ranks.sorted() && found.cards.last == "error", "\(found.cards)")
        #expect(found.audio.count == 4 && found.audio.allSatisfy { $0.state == "canplaythrough" })
        #expect(found.original)
        try ReportBrowser.screenshots(page, name: "bells-bad-set", height: found.height)
    }

    /// What ``ReportBrowserTests/interactions`` found on a bell page.
    struct Interactions: Decodable {
        var errors: [String]
        var total: Int
        var shownAtStart: Int
        var statusAtStart: String
        var pressed: String
        var rejectRowsShown: Int
        var rejectCardsShown: Int
        var keepCardsShown: Int
        var scoreAscending: Bool
        var ariaSort: String
        var scoreDescending: Bool
        var emptiesLast: Bool
        var namesSorted: Bool
        var expanded: Bool
        var groupAfterLead: Bool
        var rankRestored: Bool
        var focusHighlights: Bool
        var controls: Int
        var buttons: Int
    }

    /// Presses the bell page's controls as a curator would: the reject filter off and on, the score header twice,
    /// the file header, a group's disclosure, the rank header, the focus into the first row; and checks every control
    /// is a button.
    static let interactions = """
        <script>
        (function(){
          var out={errors:[]};
          window.addEventListener('error',function(e){out.errors.push(String(e.message));});
          try{
            var t=document.getElementById('rank'),body=t.tBodies[0],heads=t.tHead.rows[0].cells;
            function shown(){return [].filter.call(body.rows,function(r){return !r.hidden;});}
            function val(r,i){return r.cells[i].getAttribute('data-v');}
            function visible(sel){return [].filter.call(document.querySelectorAll(sel),function(c){return !c.hidden;}).length;}
            function sorted(xs,f){return xs.every(function(v,i){return i===0||f(xs[i-1],v);});}
            function scores(){return shown().map(function(r){return val(r,3);}).filter(function(v){return v!=='';}).map(Number);}
            out.total=body.rows.length;out.shownAtStart=shown().length;
            out.statusAtStart=document.querySelector('.filters .shown').textContent;
            var rb=document.querySelector('.filters button[data-verdict="reject"]');rb.click();
            out.pressed=rb.getAttribute('aria-pressed');
            out.rejectRowsShown=shown().filter(function(r){return r.getAttribute('data-verdict')==='reject';}).length;
            out.rejectCardsShown=visible('section.card.reject');out.keepCardsShown=visible('section.card.keep');
            rb.click();
            heads[3].querySelector('button').click();
            out.scoreAscending=sorted(scores(),function(a,b){return a<=b;});out.ariaSort=heads[3].getAttribute('aria-sort');
            heads[3].querySelector('button').click();
            out.scoreDescending=sorted(scores(),function(a,b){return a>=b;})&&heads[3].getAttribute('aria-sort')==='descending';
            var all=shown().map(function(r){return val(r,3);}),e=all.indexOf('');
            out.emptiesLast=e<0||all.slice(e).every(function(v){return v==='';});
            heads[2].querySelector('button').click();
            out.namesSorted=sorted(shown().map(function(r){return val(r,2);}),function(a,b){return a.localeCompare(b)<=0;});
            var more=body.querySelector('tr.lead button.more'),lead=more.closest('tr');more.click();
            out.expanded=more.getAttribute('aria-expanded')==='true';
            var next=lead.nextElementSibling;
            out.groupAfterLead=!!next&&!next.hidden&&next.classList.contains('dup')&&
              next.getAttribute('data-g')===lead.getAttribute('data-g');
            heads[0].querySelector('button').click();
            out.rankRestored=sorted(shown().filter(function(r){return !r.classList.contains('dup');})
              .map(function(r){return Number(val(r,0));}),function(a,b){return a<b;});
            var first=body.rows[0];
            first.querySelector('a').dispatchEvent(new FocusEvent('focusin',{bubbles:true}));
            out.focusHighlights=!!document.querySelector('path.hl[data-c="'+first.getAttribute('data-c')+'"]');
            var controls=[].slice.call(document.querySelectorAll('#rank th, .filters [data-verdict], button.more'));
            out.controls=controls.length;
            out.buttons=controls.filter(function(c){var b=c.tagName==='BUTTON'?c:c.querySelector('button');
              return !!b&&b.tabIndex>=0;}).length;
          }catch(x){out.errors.push(String(x));}
          var pre=document.createElement('pre');pre.id='enso-check';pre.textContent=JSON.stringify(out);
          document.body.appendChild(pre);
        })();
        </script>
        """

    /// 300 candidates (issue #48 §2): the page loads quietly with its 40 players, the verdict filters hide and show
    /// rows and cards, every column sorts both ways (a reject's missing score last), a near-duplicate group opens
    /// under its best and moves with it, and every control is a button a keyboard reaches.
    @Test func bellReportOfThreeHundredFiltersSortsAndOpensGroups() throws {
        let dir = ToolRunner.temporaryDirectory("bell-report-300")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = "\(dir)/bells-300.html"
        try ReportPage.write(ThreeHundredBells.report.html, to: page)
        let found = try ReportBrowser.check(page)
        #expect(found.external.isEmpty, "outside the file: \(found.external)")
        #expect(found.errors.isEmpty, "\(found.errors)")
        #expect(found.audio.count == BellReport.Players.limit)
        // Each plays at most its first 6 s (the bells are 3 to 8 s long).
        #expect(found.audio.allSatisfy { $0.state == "canplaythrough" && (2.9...6.01).contains($0.duration ?? 0) })
        let used = try ReportBrowser.probe(page, script: Self.interactions, as: Interactions.self)
        #expect(used.errors.isEmpty, "\(used.errors)")
        #expect(used.total == 300)
        #expect(
            used.shownAtStart < 300 && used.statusAtStart == "\(used.shownAtStart) of 300 shown", "groups collapsed")
        #expect(used.pressed == "false" && used.rejectRowsShown == 0 && used.rejectCardsShown == 0)
        #expect(used.keepCardsShown > 0)
        #expect(used.scoreAscending && used.ariaSort == "ascending" && used.scoreDescending && used.emptiesLast)
        #expect(used.namesSorted && used.expanded && used.groupAfterLead && used.rankRestored)
        #expect(used.focusHighlights, "the keyboard's focus in a row brings its curve forward")
        #expect(used.controls >= 6 + 4 && used.buttons == used.controls)
        try ReportBrowser.screenshots(page, name: "bells-300", height: 3000)
    }
    /// What ``ReportBrowserTests/playFiles`` found.
    struct FilePlay: Decodable {
        var errors: [String]
        var collapsedAtStart: Bool
        var rowShown: Bool
        var brokenState: String
        var brokenText: String
        var brokenSaysHow: Bool
        var state: String
        var volume: Double?
        var volumeDB: Double
        var audios: Int
    }

    /// Opens the group of the cards `GOOD` and `BROKEN` (their best's disclosure in the table, the cards' own
    /// disclosure), presses the broken file's player and waits for its error, then the good one's and waits for it
    /// to play (every wait has a deadline: 400 polls of 50 ms of the page's virtual time).
    static func playFiles(good: Int, broken: Int) -> String {
        """
        <script>
        (function(){
          var out={errors:[],audios:0};
          window.addEventListener('error',function(e){out.errors.push(String(e.message));});
          function finish(){var pre=document.createElement('pre');pre.id='enso-check';pre.textContent=JSON.stringify(out);
            document.body.appendChild(pre);}
          // Waits on the page's own changes, not on timers: under --virtual-time-budget a timer's ticks run ahead of
          // the media pipeline on a loaded machine, while a pending media load holds virtual time back.
          function wait(node,test,then){if(test()){then();return;}
            var o=new MutationObserver(function(){if(test()){o.disconnect();then();}});
            o.observe(node,{attributes:true,childList:true,subtree:true});}
          try{
            var good=document.getElementById('bell-\(good)'),bad=document.getElementById('bell-\(broken)');
            var gp=good.querySelector('.file-player'),bp=bad.querySelector('.file-player');
            var row=document.querySelector('#rank tr[data-c="\(good)"]');
            out.collapsedAtStart=row.hidden&&!good.closest('details').open;
            document.querySelector('#rank tr.lead[data-g="'+row.getAttribute('data-g')+'"] button.more').click();
            out.rowShown=!row.hidden;good.closest('details').open=true;bad.closest('details').open=true;
            out.volumeDB=parseFloat(gp.getAttribute('data-volume-db'));
            bp.querySelector('button.play-file').click();
            wait(bp,function(){return bp.getAttribute('data-state')==='error';},function(){
              out.brokenState=bp.getAttribute('data-state');out.brokenText=bp.querySelector('.state').textContent;
              out.brokenSaysHow=!bp.querySelector('.otherwise').hidden;
              gp.querySelector('button.play-file').click();
              wait(gp,function(){return gp.getAttribute('data-state')==='playing';},function(){
                var a=gp.querySelector('audio');out.state=gp.getAttribute('data-state');out.volume=a?a.volume:null;
                out.audios=document.querySelectorAll('audio').length;finish();});
            });
          }catch(x){out.errors.push(String(x));finish();}
        })();
        </script>
        """
    }

    /// Every candidate playable at matched level (issue #45): at 300 bells, a near-duplicate ranked past the
    /// embedded players, collapsed under its best, plays its own file (linked from the page's folder, another
    /// folder than the files') once its group is opened, at the volume that matches its loudness; a file the browser
    /// cannot decode says so, names the file and says how else to hear it; no console message.
    @Test func bellReportOfThreeHundredPlaysACollapsedMemberFromItsFile() throws {
        let dir = ToolRunner.temporaryDirectory("bell-report-files")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/bells", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        let entries = ThreeHundredBells.report.entries
        let cards = entries.map { BellReport.Card($0.result) }
        let groups = BellReport.groups(cards, signatures: entries.map { $0.kept?.signature })
        let collapsed = entries.indices.filter { groups.isMember($0) && $0 >= BellReport.Players.limit }
        #expect(collapsed.count > 2)
        let (good, broken) = (collapsed[0], collapsed[1])
        let buffers = Dictionary(uniqueKeysWithValues: ThreeHundredBells.buffers().map { ($0.name, $0.buffer) })
        try AudioFileEncoder.write(
            buffers[entries[good].result.file]!, to: "\(dir)/bells/\(entries[good].result.file)",
            options: EncodeOptions(format: .wav16))
        try Data("RIFF, but no sound".utf8).write(
            to: URL(fileURLWithPath: "\(dir)/bells/\(entries[broken].result.file)"))
        let page = "\(dir)/out/bells-300.html"
        let links = ReportLinks(page: page, workingDirectory: "\(dir)/bells")
        try ReportPage.write(BellReport.html(entries, profile: .temple, links: links), to: page)
        let found = try ReportBrowser.check(page)
        #expect(found.external.isEmpty, "nothing is loaded from outside the page until a player is pressed")
        #expect(found.audio.count == BellReport.Players.limit)
        let played = try ReportBrowser.probe(
            page, script: Self.playFiles(good: cards[good].rank, broken: cards[broken].rank), as: FilePlay.self)
        #expect(played.errors.isEmpty, "\(played.errors)")
        #expect(played.collapsedAtStart && played.rowShown)
        #expect(played.brokenState == "error" && played.brokenSaysHow, "\(played.brokenText)")
        #expect(
            played.brokenText.hasPrefix("Cannot play ../bells/\(entries[broken].result.file): "), "\(played.brokenText)"
        )
        #expect(played.state == "playing")
        // The volume is the matching gain (a volume only lowers: the copy 6 dB down is still louder than −23 LUFS).
        #expect(played.volumeDB < 0)
        #expect(abs((played.volume ?? 0) - pow(10, played.volumeDB / 20)) < 1e-3, "\(played)")
        #expect(played.audios == BellReport.Players.limit + 2)
        try ReportBrowser.screenshots(page, name: "bells-300-files", height: 3000)
    }

    /// Near-duplicate textures in the loop report (issue #45): loads quietly, the rain's copy is collapsed under
    /// it and opens with its disclosure.
    @Test func loopReportOfNearDuplicateTexturesCollapsesThem() throws {
        let dir = ToolRunner.temporaryDirectory("loop-report-textures")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = "\(dir)/loops-textures.html"
        try ReportPage.write(LoopReport.html(results: try LoopReportFixtures.textures()), to: page)
        let found = try ReportBrowser.check(page)
        #expect(found.external.isEmpty && found.errors.isEmpty)
        #expect(found.audio.count == 3 && found.audio.allSatisfy { $0.state == "canplaythrough" })
        struct Opened: Decodable {
            var errors: [String]
            var hiddenAtStart: Bool
            var shownAfter: Bool
        }
        let opened = try ReportBrowser.probe(
            page,
            script: """
                <script>
                (function(){
                  var out={errors:[]};
                  try{
                    var dup=document.querySelector('#loops tr.dup');out.hiddenAtStart=dup.hidden;
                    document.querySelector('#loops tr.lead button.more').click();out.shownAfter=!dup.hidden;
                  }catch(x){out.errors.push(String(x));}
                  var pre=document.createElement('pre');pre.id='enso-check';pre.textContent=JSON.stringify(out);
                  document.body.appendChild(pre);
                })();
                </script>
                """, as: Opened.self)
        #expect(opened.errors.isEmpty && opened.hiddenAtStart && opened.shownAfter, "\(opened)")
        try ReportBrowser.screenshots(page, name: "loops-textures", height: found.height)
    }
}
