// The console's stylesheet: system fonts, light and dark by prefers-color-scheme, one column on narrow windows.

/** The console's CSS, served as `/_console/console.css`. */
export const consoleCss = `
:root{color-scheme:light dark;--bg:#f7f8fa;--panel:#fff;--text:#1c2330;--muted:#5a6272;--line:#d9dde5;
--accent:#2f5bd3;--ok:#137a3a;--ok-bg:#e2f4e8;--warn:#8a5a00;--warn-bg:#fdf0d5;--bad:#b3261e;--bad-bg:#fde4e1;
--code-bg:#eef1f6;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:15px;line-height:1.45}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--panel:#171a21;--text:#e7e9ee;--muted:#a3aab8;
--line:#2c313c;--accent:#8fb0ff;--ok:#7fe0a0;--ok-bg:#173a25;--warn:#ffd27a;--warn-bg:#3d2f10;--bad:#ffb4ab;
--bad-bg:#4a1c18;--code-bg:#222733}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text)}
a{color:var(--accent)}
main:not(.reference) :is(code,pre),.reference-note code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.9em}
main:not(.reference) code,.reference-note code{background:var(--code-bg);padding:0 .25em;border-radius:3px}
main:not(.reference) pre{background:var(--code-bg);padding:.6em;overflow:auto;max-height:20em;border-radius:4px}
header{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:center;padding:.75em 1.25em;
background:var(--panel);border-bottom:1px solid var(--line)}
header h1{font-size:1.1em;margin:0}
nav ul{display:flex;flex-wrap:wrap;gap:.25em 1em;list-style:none;margin:0;padding:0}
nav a[aria-current=page]{font-weight:700;text-decoration:none}
main{max-width:1200px;margin:0 auto;padding:1em 1.25em 3em}
section{margin:1.25em 0}
h2{font-size:1.25em;margin:1.5em 0 .5em}h3{font-size:1.05em;margin:1em 0 .5em}h4{font-size:.9em;margin:.5em 0 .25em}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:1em}
.muted{color:var(--muted)}
.error{color:var(--bad);font-weight:600}
form{display:flex;flex-wrap:wrap;gap:.5em;align-items:end;margin:.5em 0}
label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted);gap:.2em}
input,select,button{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line);
border-radius:4px;padding:.35em .6em}
input[type=password]{min-width:min(28em,80vw)}
button{cursor:pointer;background:var(--code-bg)}
button.primary{background:var(--accent);color:var(--bg);border-color:var(--accent)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.controls{display:grid;grid-template-columns:repeat(auto-fit,minmax(16em,1fr));gap:1em}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{text-align:left;border-bottom:1px solid var(--line);padding:.35em .5em;vertical-align:top}
td.num{text-align:right;white-space:nowrap}
td.path{word-break:break-all;min-width:14em}
.badge{display:inline-block;padding:0 .45em;border-radius:999px;font-size:.8em;font-weight:600}
.badge-ok{color:var(--ok);background:var(--ok-bg)}.badge-warn{color:var(--warn);background:var(--warn-bg)}
.badge-bad{color:var(--bad);background:var(--bad-bg)}
.cards{list-style:none;padding:0;margin:0;display:grid;gap:.6em}
.card{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.6em .8em}
.card-head{display:flex;flex-wrap:wrap;gap:.4em 1em;align-items:center}
.card-head button{margin-left:auto}
.timeline,.attempts{margin:.4em 0 0;padding-left:1.4em;font-size:.9em}
#inspector-panels{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 1.5em}
#inspector-panels>section,.controls>*{min-width:0}
.card,.panel,td,.muted{overflow-wrap:anywhere}
#inspector-panels>section:last-child{grid-column:1/-1}
@media (max-width:800px){#inspector-panels{grid-template-columns:minmax(0,1fr)}header{padding:.6em}}
.provenance{display:inline-block;padding:0 .5em;border-radius:999px;font-size:.78em;font-weight:700;
font-style:normal;margin-right:.4em;vertical-align:baseline}
.provenance-documented{color:#0b5a2a;background:#d8f1e0;border:1px solid #7cc596}
.provenance-inferred{color:#6b4500;background:#fbecc8;border:1px solid #dcb35c}
.provenance-reason{font-size:.85em;color:var(--muted)}
main.reference{max-width:none;padding:0}
@media (prefers-color-scheme:dark){main.reference table tr,main.reference table th,main.reference table td{
background:transparent!important;color:var(--text)!important;border-color:var(--line)!important}}
.reference-note{padding:.5em 1.25em;margin:0;background:var(--panel);border-bottom:1px solid var(--line)}
`;
