import AssetPipeline
import AudioCore
import AudioFile
import Foundation
import SystemIO

/// The page shell every HTML report shares (loops, assets, bells): one self-contained file with inline styles and
/// script, no fonts, scripts, images or sounds from anywhere else, so it can be mailed or attached to a CI run.
///
/// The style follows the reader's colour scheme (light or dark, `prefers-color-scheme`) and narrows to one
/// column on a small screen. Plots are inline SVG drawn with the page's colours (``ReportPlot``); sounds are
/// `data:` URIs (``ReportAudio``), played loudness-matched with a page-wide "original level" toggle (key `O`).
///
/// - Thread safety: pure functions.
enum ReportPage {
    /// The whole page: `body` inside the shell, with the shared style, the player script and the tables' sorting
    /// and filters (``ReportTable``; a page without a sortable table ignores them).
    ///
    /// - Parameters:
    ///   - title: the document title (escaped here).
    ///   - body: the HTML of the page's content.
    ///   - style: CSS for this report only, appended to the shared style.
    ///   - script: script for this report only, run after the players' script.
    static func html(title: String, body: String, style: String = "", script: String = "") -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(css)\(ReportTable.style)\(style)
        </style></head><body>
        \(body)
        <script>
        \(playerScript)
        \(ReportTable.script)
        \(script)
        </script>
        </body></html>

        """
    }

    /// Escapes text for HTML content and attribute values, and closes every direction override, embedding or
    /// isolate it leaves open (a file name with U+202E), so it cannot reorder the page's text after it.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out + bidiClosers(s)
    }

    /// What closes the direction controls `s` leaves open, innermost first: U+202C (PDF) for an embedding or
    /// override (U+202A-U+202E), U+2069 (PDI) for an isolate (U+2066-U+2068), as Unicode's bidi algorithm pairs
    /// them (UAX #9).
    static func bidiClosers(_ s: String) -> String {
        var open: [Unicode.Scalar] = []
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x202A, 0x202B, 0x202D, 0x202E: open.append("\u{202C}")
            case 0x2066, 0x2067, 0x2068: open.append("\u{2069}")
            case 0x202C: if open.last == "\u{202C}" { open.removeLast() }
            case 0x2069:
                // A PDI closes its isolate and every embedding opened inside it.
                if let i = open.lastIndex(of: "\u{2069}") { open.removeSubrange(i...) }
            default: continue
            }
        }
        return String(String.UnicodeScalarView(open.reversed()))
    }

    /// A file or folder name as page content: escaped and isolated in `<bdi>`, so a name in a right-to-left script
    /// or with a direction override (U+202E) is laid out on its own and cannot reorder the text around it.
    static func fileName(_ s: String) -> String { "<bdi>\(escape(s))</bdi>" }

    /// A verdict pill: `class` names the verdict's colour (pass, warn, fail, error, n/a).
    static func pill(_ verdict: String, text: String? = nil) -> String {
        "<span class=\"pill \(cssClass(verdict))\">\(escape(text ?? verdict))</span>"
    }

    /// The CSS class of a verdict (`n/a` is `na`).
    static func cssClass(_ verdict: String) -> String { verdict == "n/a" ? "na" : verdict }

    /// A number as a reader wants it: `digits` decimals, a true minus sign, and no "−0.0" for a value that rounds
    /// to zero (−1.5e−6 → "0.0"); magnitudes of 1000 and more without decimals.
    static func number(_ v: Double, digits: Int = 1) -> String {
        guard v.isFinite else { return v.isNaN ? "–" : (v > 0 ? "∞" : "−∞") }
        let s = RuleFigure.fixed(v, decimals: abs(v) >= 1000 ? 0 : digits)
        return s.hasPrefix("-") ? "−" + s.dropFirst() : s
    }

    /// `number(v)` with a sign always shown (+0.3, −1.2), for differences.
    static func signed(_ v: Double, digits: Int = 1) -> String {
        let s = number(v, digits: digits)
        return s.hasPrefix("−") || s.allSatisfy({ $0 == "0" || $0 == "." }) ? s : "+" + s
    }

    /// Writes the page atomically.
    ///
    /// - Throws: `EnsoError` `.failure` naming the path when it cannot be written.
    static func write(_ html: String, to path: String) throws(EnsoError) {
        do {
            try AtomicFile.write(Array(html.utf8), to: path)
        } catch {
            throw EnsoError(.failure, "cannot write the report: \(error.message)")
        }
    }

    /// The toolbar above the players: the common level they play at and the original-level toggle.
    static func listeningBar(matchedTo target: Double) -> String {
        "<p class=\"listen-bar\">Players are loudness-matched: every excerpt plays at \(number(target)) LUFS, "
            + "each shows its own level. <label><input type=\"checkbox\" id=\"original-level\"> original level</label> "
            + "<kbd>O</kbd></p>\n"
    }

    /// The shared style: colours as variables (light, then dark), cards, pills, tables, figures, narrow screens.
    static let css = """
        :root{color-scheme:light dark;--bg:#f6f6f4;--card:#fff;--fg:#1d1f21;--muted:#5f6368;--line:#d9d9d9;\
        --grid:#e6e6e6;--s0:#1f5fa8;--s1:#d05a00;--s2:#2e7d32;--s3:#8e44ad;--seam:#c62828;--pass:#2e7d32;\
        --warn:#a86200;--fail:#c62828;--error:#54595f;--na:#9aa0a6;--keep:#2e7d32;--fix:#a86200;--listen:#1f5fa8;\
        --reject:#c62828}
        @media (prefers-color-scheme:dark){:root{--bg:#15171a;--card:#1e2125;--fg:#e8eaed;--muted:#9aa0a6;\
        --line:#363a40;--grid:#2b2f34;--s0:#7fb7e6;--s1:#f0a050;--s2:#7bc67e;--s3:#c39bd3;--seam:#ff6b5b;\
        --pass:#388e3c;--warn:#b8700a;--fail:#d93025;--error:#6b7075;--na:#6b7075}}
        *{box-sizing:border-box}
        body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:1em 1.5em;max-width:1180px;\
        background:var(--bg);color:var(--fg)}
        h1{font-size:20px;margin:.3em 0}h2{font-size:15px;margin:0 0 .4em;overflow-wrap:anywhere}
        a{color:var(--s0)}.muted,figcaption{color:var(--muted)}figcaption{font-size:12px}figure{margin:0}
        .pill{display:inline-block;min-width:3.6em;text-align:center;padding:1px 8px;border-radius:10px;\
        color:#fff;font-weight:600;font-size:12px;margin-right:.4em}
        .pill.pass,.pill.keep{background:var(--pass)}.pill.warn,.pill.fix{background:var(--warn)}\
        .pill.fail,.pill.reject{background:var(--fail)}.pill.error{background:var(--error)}\
        .pill.na{background:var(--na)}.pill.listen{background:var(--listen)}
        section.card{background:var(--card);border:1px solid var(--line);border-left:6px solid var(--na);\
        border-radius:6px;padding:.7em 1em;margin:1em 0}
        section.card.pass,section.card.keep{border-left-color:var(--pass)}\
        section.card.warn,section.card.fix{border-left-color:var(--warn)}\
        section.card.fail,section.card.reject{border-left-color:var(--fail)}\
        section.card.error{border-left-color:var(--error)}section.card.listen{border-left-color:var(--listen)}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;margin:.4em 0}td,th{padding:3px 8px;border-bottom:1px solid var(--line);\
        text-align:left;vertical-align:top}th{font-weight:600}td.num,th.num{text-align:right;\
        font-variant-numeric:tabular-nums;white-space:nowrap}
        table.metrics td:last-child{min-width:16em}
        .figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px;margin:.6em 0}
        svg.plot{width:100%;height:auto;display:block;background:var(--card)}
        svg.plot text{fill:var(--muted);font:11px system-ui,sans-serif}svg.plot .title{fill:var(--fg);font-weight:600}
        svg.plot .axis{stroke:var(--muted);stroke-width:1}svg.plot .grid{stroke:var(--grid);stroke-width:1}
        svg.plot .grid.strong{stroke:var(--muted);stroke-dasharray:4 3}
        svg.plot .seam{stroke:var(--seam);stroke-width:1.5}svg.plot text.seam{fill:var(--seam);stroke:none}
        svg.plot .line{fill:none;stroke-width:1.4}svg.plot .dash{stroke-dasharray:3 3;stroke-width:1}
        svg.plot .band{stroke:none;opacity:.85}
        .s0{stroke:var(--s0);fill:var(--s0)}.s1{stroke:var(--s1);fill:var(--s1)}.s2{stroke:var(--s2);fill:var(--s2)}\
        .s3{stroke:var(--s3);fill:var(--s3)}svg.plot .mark{fill:var(--seam);opacity:.55;stroke:none}
        .player{display:flex;flex-wrap:wrap;align-items:center;gap:.3em 1em;margin:.4em 0}.player audio{height:32px}
        button.play-file{font:inherit;font-size:12px;border:1px solid var(--line);border-radius:4px;background:none;\
        color:var(--s0);cursor:pointer;padding:2px 8px}.file-player[data-state="error"] .state{color:var(--fail)}
        .level{font-size:12px;color:var(--muted)}.listen-bar{position:sticky;top:0;z-index:1;background:var(--bg);\
        padding:.4em 0;margin:.4em 0;border-bottom:1px solid var(--line)}
        kbd{border:1px solid var(--line);border-radius:3px;padding:0 4px;font-size:12px}
        body.original-level .matched{text-decoration:line-through}
        @media (max-width:640px){body{padding:.5em .6em}.figs{grid-template-columns:1fr}td,th{padding:2px 4px}\
        .hide-narrow{display:none}}

        """

    /// The players' script: loudness-matched by default (the excerpts are encoded at one level); the
    /// "original level" toggle or key `O` routes every player through a Web Audio gain that undoes the matching
    /// gain (`data-gain-db`), so a louder file sounds louder again. `data-repeat` plays a seam excerpt that many
    /// times; starting one player pauses the others. A file player (``ReportAudio/filePlayer(url:loudness:target:label:otherwise:)``)
    /// makes its `<audio>` when pressed, at the volume of its `data-volume-db` (1 at the original level), and
    /// keeps its `data-state` and its words in step with the element; on an error it names the file and shows
    /// how else to hear it.
    static let playerScript = """
        (function(){
          var players=[].slice.call(document.querySelectorAll('audio[data-gain-db]'));
          var box=document.getElementById('original-level');var ctx=null,gains=[],original=false,files=[];
          function apply(){
            if(box)box.checked=original;document.body.classList.toggle('original-level',original);
            if(original&&!ctx){try{ctx=new (window.AudioContext||window.webkitAudioContext)();}catch(e){ctx=null;}}
            players.forEach(function(a,i){
              if(ctx&&!gains[i]){var s=ctx.createMediaElementSource(a);var g=ctx.createGain();s.connect(g);
                g.connect(ctx.destination);gains[i]=g;}
              var db=parseFloat(a.getAttribute('data-gain-db'))||0;
              if(gains[i])gains[i].gain.value=original?Math.pow(10,-db/20):1;
            });
            if(ctx&&ctx.state==='suspended')ctx.resume();
            files.forEach(function(p){if(p.ensoVolume)p.ensoVolume();});
          }
          if(box)box.addEventListener('change',function(){original=box.checked;apply();});
          document.addEventListener('keydown',function(e){
            if((e.key==='o'||e.key==='O')&&!e.ctrlKey&&!e.metaKey&&!e.altKey){original=!original;apply();}});
          function only(a){document.querySelectorAll('audio').forEach(function(b){if(b!==a)b.pause();});}
          players.forEach(function(a){
            var left=0;
            a.addEventListener('play',function(){
              only(a);
              if(a.currentTime<0.05&&left<=0)left=(parseInt(a.getAttribute('data-repeat'),10)||1)-1;});
            a.addEventListener('ended',function(){if(left>0){left--;a.currentTime=0;a.play();}});
          });
          var codes={1:'the load was stopped',2:'a read error',3:'the sound could not be decoded',
            4:'this browser cannot play its format, or the file is not where this page expects it'};
          function volume(p){
            var db=parseFloat(p.getAttribute('data-volume-db'))||0;return original?1:Math.min(1,Math.pow(10,db/20));}
          files=[].slice.call(document.querySelectorAll('.file-player'));
          files.forEach(function(p){
            var b=p.querySelector('button.play-file'),st=p.querySelector('.state'),a=null;
            function state(s,text){p.setAttribute('data-state',s);st.textContent=text;}
            b.addEventListener('click',function(){
              if(!a){a=document.createElement('audio');a.controls=true;a.preload='auto';
                a.addEventListener('play',function(){only(a);});
                a.addEventListener('playing',function(){state('playing','playing');});
                a.addEventListener('pause',function(){if(!a.ended&&!a.error)state('paused','paused');});
                a.addEventListener('ended',function(){state('ended','played to its end');});
                a.addEventListener('error',function(){
                  var c=a.error?a.error.code:0;
                  var src=p.getAttribute('data-src');try{src=decodeURIComponent(src);}catch(x){}
                  state('error','Cannot play '+src+': '+(codes[c]||'an error')+'. ');
                  p.querySelector('.otherwise').hidden=false;});
                a.src=p.getAttribute('data-src');p.insertBefore(a,b.nextSibling);b.hidden=true;}
              a.volume=volume(p);state('loading','loading');
              var r=a.play();if(r&&r.catch)r.catch(function(){});
            });
            p.ensoVolume=function(){if(a)a.volume=volume(p);};
          });
        })();
        """
}
