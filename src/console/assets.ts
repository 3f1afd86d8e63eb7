/**
 * The console's stylesheet and script, served from the console itself (no CDN, nothing fetched at
 * run time). Colours keep a contrast of at least 4.5:1; focus is always visible.
 */
export const CONSOLE_CSS = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #4a4a4a; --bg: #ffffff; --line: #c8c8c8; --accent: #0b57d0; --danger: #a50e0e; --soft: #f3f5f8; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .6rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header .brand { font-weight: 700; margin-right: 1rem; text-decoration: none; color: var(--fg); }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 2px; }
header form { margin-left: auto; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
/* A public id or a date never breaks inside (at its '-'); a wide table scrolls on its own, not the page. */
td code, td.when { white-space: nowrap; }
.table-scroll { overflow-x: auto; max-width: 100%; position: relative; } /* relative: the visually hidden captions inside scroll with it */
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
pre { background: var(--soft); border: 1px solid var(--line); padding: .75rem; overflow-x: auto; white-space: pre; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input, select, button { font: inherit; }
input[type=text], input[type=email], input[type=password], input[type=number], input[type=date], select { padding: .4rem .5rem; border: 1px solid #767676; border-radius: 4px; min-width: 16rem; }
button, .button { display: inline-block; padding: .4rem .9rem; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); }
:focus-visible { outline: 3px solid #f4b400; outline-offset: 2px; }
.hint { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
.notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); background: var(--soft); padding: .75rem 1rem; margin: 1rem 0; }
.error { border-left-color: var(--danger); }
tr.flagged td { background: #fce8e6; }
.flag strong { color: var(--danger); }
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret output { font-family: ui-monospace, Menlo, Consolas, monospace; padding: .4rem .5rem; border: 1px solid var(--line); background: #fff; word-break: break-all; }
.inline { display: inline; }
.badge { display: inline-block; margin-left: .4em; padding: 0 .45em; border-radius: .6em; background: var(--danger); color: #fff; font-size: .85em; text-decoration: none; }
.row { display: flex; gap: 1rem; flex-wrap: wrap; align-items: flex-end; }
.row label { margin-top: 0; }
fieldset { border: 1px solid var(--line); margin: 1rem 0; padding: .5rem 1rem 1rem; }
legend { font-weight: 700; }
.checks label { display: inline-flex; gap: .35rem; font-weight: 400; margin-right: 1rem; }
.skip { position: absolute; left: -10000px; top: .5rem; background: #fff; padding: .4rem .8rem; z-index: 1; }
.skip:focus { left: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
svg.chart { max-width: 720px; }
svg text { font: 12px system-ui, sans-serif; fill: var(--fg); }
`;

/** The copy buttons: `<button data-copy="ID">` copies the text of the element with that id. Everything else works without script. */
export const CONSOLE_JS = `
document.querySelectorAll('button[data-copy]').forEach(function (button) {
  button.hidden = false;
  button.addEventListener('click', function () {
    var source = document.getElementById(button.getAttribute('data-copy'));
    var text = source ? (source.value !== undefined && source.tagName !== 'OUTPUT' ? source.value : source.textContent) : '';
    var done = function () { button.textContent = 'Copied'; };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { button.textContent = 'Select and copy'; });
    else { var range = document.createRange(); range.selectNodeContents(source); var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(range); button.textContent = 'Selected: press Ctrl+C'; }
  });
});
`;
