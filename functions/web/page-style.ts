/**
 * The pages' whole stylesheet, inlined in each page and allowed by its hash in the CSP (so no
 * other style, and no `style` attribute, applies). System fonts, one column on a phone, a tool's
 * facts beside its main column and results beside their facts on a wide screen (up to 80rem), a
 * skip link that shows when focused, and the colours of the system's light or dark setting.
 */
// One rule per line here, one line in the page and in the Lambda bundle.
export const PAGE_STYLE = [
  ":root{color-scheme:light " +
    "dark;--fg:#1b1f24;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;" +
    "--link:#0b5cc4;--accent:#1a7f37;--warn:#9a6700;--danger:#cf222e}",
  "@media " +
    "(prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#161b22;" +
    "--line:#3d444d;--link:#58a6ff;--accent:#3fb950;--warn:#d29922;--danger:#f85149}}",
  "*{box-sizing:border-box}",
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}',
  "a{color:var(--link)}",
  "header,main,footer{max-width:80rem;margin:0 auto;padding:0 1.5rem}",
  ".skip{position:absolute;left:1rem;top:-4rem;z-index:1;padding:.5rem " +
    "1rem;background:var(--bg);border:2px solid var(--link);border-radius:6px}",
  ".skip:focus{top:.5rem}",
  "main:focus:not(:focus-visible){outline:none}",
  ".visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 " +
    "0 0 0);white-space:nowrap;border:0}",
  "header{display:flex;flex-wrap:wrap;gap:.5rem " +
    "1.5rem;align-items:baseline;padding-top:1rem;padding-bottom:.5rem;border-bottom:1px solid var(--line)}",
  "header .home{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}",
  "footer{color:var(--muted);font-size:.875rem;padding-top:2rem;padding-bottom:2rem}",
  "h1{font-size:1.6rem;margin:1rem 0 .25rem;overflow-wrap:anywhere}",
  "h2{font-size:1.25rem;margin:2rem 0 .5rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}",
  "code,pre{font:.875rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}",
  "pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow-x:auto;margin:0}",
  ":not(pre)>code{background:var(--panel);padding:.1em .3em;border-radius:4px;overflow-wrap:anywhere}",
  ".muted{color:var(--muted)}",
  ".search{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}",
  ".search input,.search select,.search button,.copy{font:inherit;padding:.4rem " +
    ".6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}",
  ".search input[name=q]{flex:1 1 16rem;min-width:0}",
  ".search input[name=tag]{flex:0 1 9rem;min-width:0}",
  ".search button,.copy{cursor:pointer;background:var(--panel)}",
  ".results{list-style:none;padding:0;margin:0}",
  ".results>li{display:grid;grid-template-columns:minmax(0,1fr);gap:.25rem 2rem;padding:.75rem 0;border-bottom:1px solid var(--line)}",
  ".results .meta{margin:0;font-size:.9rem;overflow-wrap:anywhere}",
  ".results .name{font-weight:600;font-size:1.05rem;overflow-wrap:anywhere}",
  ".tags{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:.35rem 0 0}",
  ".tags a,.badge{display:inline-block;font-size:.8rem;padding:0 .5rem;border:1px " +
    "solid var(--line);border-radius:999px;text-decoration:none;overflow-wrap:anywhere}",
  ".badge.latest{border-color:var(--accent);color:var(--accent)}",
  ".badge+.badge{margin-left:.35rem}",
  ".badge.signed{border-color:var(--accent);color:var(--accent)}",
  ".badge.deprecated{border-color:var(--warn);color:var(--warn)}",
  ".badge.yanked{border-color:var(--danger);color:var(--danger)}",
  ".status-message{display:block;font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}",
  ".notice{border:1px solid var(--line);border-left:4px solid var(--warn);padding:.5rem " +
    "1rem;border-radius:6px;background:var(--panel);margin:1rem 0}",
  ".notice.yanked{border-left-color:var(--danger)}",
  ".notice p{margin:.4rem 0}",
  ".status-reason{margin:.4rem 0;padding:.25rem .75rem;border-left:2px solid var(--line);white-space:pre-wrap;overflow-wrap:anywhere}",
  "dl.release{margin:.75rem 0 0}",
  ".pages{display:flex;justify-content:space-between;gap:1rem;margin:1rem 0}",
  ".table{overflow-x:auto}",
  "table{border-collapse:collapse;width:100%;font-size:.925rem}",
  "th,td{text-align:left;vertical-align:top;padding:.4rem .6rem;border-bottom:1px solid var(--line)}",
  "th{font-weight:600}",
  "td>code{overflow-wrap:normal;white-space:nowrap}",
  "dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}",
  "dl.facts dt{color:var(--muted)}",
  "dl.facts dd{margin:0;overflow-wrap:anywhere}",
  ".snippet{margin:.75rem 0}",
  ".snippet .bar{display:flex;justify-content:space-between;align-items:center}",
  ".snippet .hint{margin:0 0 .25rem;font-size:.85rem}",
  ".tool-layout{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2.5rem}",
  ".tool-side h2:first-child{margin-top:1rem}",
  ".copy{font-size:.8rem;padding:.15rem .6rem}",
  ".doc{overflow-wrap:break-word}",
  ".doc img{max-width:100%}",
  ".doc table{display:block;overflow-x:auto}",
  ".error{border:1px solid var(--line);border-left:4px solid var(--danger);padding:.75rem 1rem;border-radius:6px;background:var(--panel)}",
  "@media (max-width:40rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}}",
  "@media (min-width:64rem){.tool-layout{grid-template-columns:minmax(0,1fr) 22rem}.tool-side{border-left:1px " +
    "solid var(--line);padding-left:1.5rem}.results>li{grid-template-columns:minmax(0,1fr) 18rem}}",
].join("");
