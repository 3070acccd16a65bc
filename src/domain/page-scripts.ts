/**
 * The two inline scripts of a server-rendered page, written out here once: the build puts them in the page,
 * the server allows exactly these texts by their CSP hashes. Both are plain ES5-safe text, each well under 1 kB.
 */

/** Where the capture script keeps what the shopper did before the app hydrated, for the app to replay once. */
export const EARLY_INPUT_GLOBAL = 'tvcEarlyInput';

/**
 * In the head: until the app stops it, every click, input and change on the page is held back from the page
 * (a click's default too, so no box toggles and no form submits natively) and queued as [type, element, value];
 * consecutive inputs into one field keep only their last value.
 */
export const CAPTURE_SCRIPT =
  '(function(){var q=[],t=["click","input","change","submit"],h=function(e){var n=e.target,l=q[q.length-1];' +
  'if(e.type=="click"||e.type=="submit")e.preventDefault();e.stopImmediatePropagation();if(e.type=="submit")return;' +
  'if(e.type!="click"&&l&&l[0]!="click"&&l[1]==n)q.pop();q.push([e.type,n,n.value])};' +
  't.forEach(function(y){addEventListener(y,h,true)});' +
  `window.${EARLY_INPUT_GLOBAL}={queue:q,stop:function(){t.forEach(function(y){removeEventListener(y,h,true)})}}})()`;

/**
 * At the end of the body, with the app's module in `data-src`: the module is requested a frame after the first
 * paint, so the server's page paints first (a hidden page has no frames: it loads at once).
 */
export const LOADER_SCRIPT =
  '(function(){var s=document.currentScript.getAttribute("data-src"),l=function(){var e=document.createElement("script");' +
  'e.type="module";e.src=s;document.head.appendChild(e)};' +
  'if(document.hidden)l();else requestAnimationFrame(function(){setTimeout(l,0)})})()';

/** The page's inline scripts, in the order they appear. */
export const PAGE_SCRIPTS = [CAPTURE_SCRIPT, LOADER_SCRIPT] as const;
