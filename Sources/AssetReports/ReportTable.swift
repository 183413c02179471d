/// Verdict filters and column sorting for a report's table: a few lines of script in the page, no framework, every
/// control a native `<button>` (reached with Tab, pressed with Enter or Space, its state said by `aria-pressed`,
/// `aria-sort` or `aria-expanded`).
///
/// The markup the script reads:
/// - the table has `class="sortable"` and an `id`; each `<th>` holds a ``header(_:numeric:sorted:)`` button, and a
///   press sorts by that column (ascending first, then descending);
/// - a cell's sort key is its `data-v` (a number, else text; a cell without one sorts last either way);
/// - each row says its verdict in `data-verdict`; a near-duplicate group's rows share `data-g`, its best has
///   `class="lead"` and a ``disclosure(count:)`` button, the others `class="dup"`, shown while that button is open.
///   Sorting moves a group as one, behind its best;
/// - ``filterBar(_:table:)`` above the table: one toggle per verdict. A verdict switched off hides its rows and its
///   cards (`section.card[data-verdict]`), and the bar says how many rows are shown.
///
/// - Thread safety: pure values.
enum ReportTable {
    /// The filter bar of the table `id`: a toggle per verdict with its count (verdicts with none are left out).
    static func filterBar(_ counts: [(verdict: String, count: Int)], table id: String) -> String {
        let present = counts.filter { $0.count > 0 }
        guard present.count > 1 else { return "" }
        var s = "<div class=\"filters\" role=\"group\" aria-label=\"show verdicts\" data-for=\"\(id)\">show "
        for c in present {
            s += "<button type=\"button\" class=\"pill \(ReportPage.cssClass(c.verdict))\" aria-pressed=\"true\" "
            s += "data-verdict=\"\(ReportPage.escape(c.verdict))\">\(c.count) \(ReportPage.escape(c.verdict))</button> "
        }
        let total = present.map(\.count).reduce(0, +)
        return s + "<span class=\"shown muted\" aria-live=\"polite\">\(total) of \(total) shown</span></div>\n"
    }

    /// A sortable column header: its label as a button; `sorted` marks the column the rows are in order of.
    static func header(_ label: String, numeric: Bool = false, sorted: Bool = false) -> String {
        "<th\(numeric ? " class=\"num\"" : "") aria-sort=\"\(sorted ? "ascending" : "none")\">"
            + "<button type=\"button\" class=\"sort\">\(label)</button></th>"
    }

    /// The button in a group's best row that shows or hides the `count` others.
    static func disclosure(count: Int) -> String {
        "<button type=\"button\" class=\"more\" aria-expanded=\"false\">+\(count) near-duplicate"
            + "\(count == 1 ? "" : "s")</button>"
    }

    static let style = """
        .filters{margin:.4em 0}.filters button.pill{border:0;cursor:pointer;font:inherit;font-size:12px}\
        .filters button.pill[aria-pressed="false"]{background:var(--grid);color:var(--muted);text-decoration:line-through}
        table.sortable th{padding:0}table.sortable th button.sort{font:inherit;font-weight:600;color:inherit;\
        background:none;border:0;padding:3px 8px;cursor:pointer;width:100%;text-align:inherit}
        table.sortable th[aria-sort="ascending"] button.sort::after{content:" ▲";font-size:10px}\
        table.sortable th[aria-sort="descending"] button.sort::after{content:" ▼";font-size:10px}
        button:focus-visible,summary:focus-visible{outline:2px solid var(--s0);outline-offset:1px}
        button.more{font:inherit;font-size:11px;border:1px solid var(--line);border-radius:3px;background:none;\
        color:var(--s0);cursor:pointer;padding:0 4px;margin-top:2px}tr.dup td{background:color-mix(in srgb,var(--grid) \
        45%,transparent)}tr.dup td:nth-child(3){padding-left:1.6em}

        """

    /// Sorting, filters and group disclosure for every `table.sortable` of the page.
    static let script = """
        (function(){
          document.querySelectorAll('table.sortable').forEach(function(t){
            var body=t.tBodies[0],heads=[].slice.call(t.tHead.rows[0].cells),off={};
            var bar=document.querySelector('.filters[data-for="'+t.id+'"]');
            var dups={};[].forEach.call(body.rows,function(r){
              if(r.classList.contains('dup'))(dups[r.getAttribute('data-g')]=dups[r.getAttribute('data-g')]||[]).push(r);});
            function key(r,i){var c=r.cells[i];return c?c.getAttribute('data-v'):null;}
            function cmp(a,b,i,dir){
              var x=key(a,i),y=key(b,i),ex=x===null||x==='',ey=y===null||y==='';
              if(ex||ey)return ex===ey?0:(ex?1:-1);
              var nx=Number(x),ny=Number(y);
              return dir*((!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y));}
            function sortBy(i,dir){
              var rows=[].slice.call(body.rows),at=new Map();rows.forEach(function(r,k){at.set(r,k);});
              rows.filter(function(r){return !r.classList.contains('dup');})
                .sort(function(a,b){return cmp(a,b,i,dir)||at.get(a)-at.get(b);})
                .forEach(function(r){body.appendChild(r);
                  (dups[r.getAttribute('data-g')]||[]).forEach(function(d){body.appendChild(d);});});
              heads.forEach(function(h,k){h.setAttribute('aria-sort',k===i?(dir>0?'ascending':'descending'):'none');});}
            function refresh(){
              var n=0,all=0;
              [].forEach.call(body.rows,function(r){
                var show=!off[r.getAttribute('data-verdict')];all++;
                if(show&&r.classList.contains('dup')){
                  var lead=body.querySelector('tr.lead[data-g="'+r.getAttribute('data-g')+'"] button.more');
                  show=!!lead&&lead.getAttribute('aria-expanded')==='true';}
                r.hidden=!show;if(show)n++;});
              document.querySelectorAll('section.card[data-verdict]').forEach(function(c){
                c.hidden=!!off[c.getAttribute('data-verdict')];});
              var s=bar&&bar.querySelector('.shown');if(s)s.textContent=n+' of '+all+' shown';}
            heads.forEach(function(h,i){var b=h.querySelector('button.sort');if(!b)return;
              b.addEventListener('click',function(){sortBy(i,h.getAttribute('aria-sort')==='ascending'?-1:1);});});
            body.querySelectorAll('tr.lead button.more').forEach(function(b){
              b.addEventListener('click',function(){
                b.setAttribute('aria-expanded',b.getAttribute('aria-expanded')==='true'?'false':'true');refresh();});});
            if(bar)bar.querySelectorAll('button[data-verdict]').forEach(function(b){
              b.addEventListener('click',function(){var v=b.getAttribute('data-verdict');
                off[v]=!off[v];b.setAttribute('aria-pressed',off[v]?'false':'true');refresh();});});
            refresh();
          });
        })();
        """
}
