/**
 * The pages' whole stylesheet, inlined in each page and allowed by its hash in the CSP (so no
 * other style, and no `style` attribute, applies). System fonts, one column that widens on larger
 * screens, and the colours of the system's light or dark setting.
 */
export const PAGE_STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;--link:#0b5cc4;--accent:#1a7f37}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#161b22;--line:#3d444d;--link:#58a6ff;--accent:#3fb950}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;padding-top:1rem;padding-bottom:.5rem;border-bottom:1px solid var(--line)}
header .home{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
footer{color:var(--muted);font-size:.875rem;padding-top:2rem;padding-bottom:2rem}
h1{font-size:1.6rem;margin:1rem 0 .25rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
code,pre{font:.875rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow-x:auto;margin:0}
:not(pre)>code{background:var(--panel);padding:.1em .3em;border-radius:4px;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.search{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}
.search input,.search select,.search button,.copy{font:inherit;padding:.4rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.search input[name=q]{flex:1 1 16rem;min-width:0}
.search input[name=tag]{flex:0 1 9rem;min-width:0}
.search button,.copy{cursor:pointer;background:var(--panel)}
.results{list-style:none;padding:0;margin:0}
.results>li{padding:.75rem 0;border-bottom:1px solid var(--line)}
.results .name{font-weight:600;font-size:1.05rem;overflow-wrap:anywhere}
.tags{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:.35rem 0 0}
.tags a,.badge{display:inline-block;font-size:.8rem;padding:0 .5rem;border:1px solid var(--line);border-radius:999px;text-decoration:none;overflow-wrap:anywhere}
.badge.latest{border-color:var(--accent);color:var(--accent)}
.pages{display:flex;justify-content:space-between;gap:1rem;margin:1rem 0}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.925rem}
th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}
th{font-weight:600}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.snippet{margin:.75rem 0}
.snippet .bar{display:flex;justify-content:space-between;align-items:center;margin-bottom:.25rem}
.copy{font-size:.8rem;padding:.15rem .6rem}
.doc{overflow-wrap:break-word}
.doc img{max-width:100%}
.doc table{display:block;overflow-x:auto}
.error{border:1px solid var(--line);border-left:4px solid #cf222e;padding:.75rem 1rem;border-radius:6px;background:var(--panel)}
@media (max-width:40rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}}
`.trim();
