/**
 * The two inline scripts of a server-rendered page, written out here once: the build puts them in the page,
 * the server allows exactly these texts by their CSP hashes. Both are plain ES5-safe text, each well under 1 kB.
 */

/** Where the capture script keeps what the shopper did before the app hydrated, for the app to replay once. */
export const EARLY_INPUT_GLOBAL = 'tvcEarlyInput';

/**
 * In the head: until the app stops it, the page's clicks, inputs and changes are kept from the page's handlers and
 * queued as [type, element, value]. A box or a radio still ticks natively (queued with its new state); a click
 * inside a label is left to the label, whose control's own click is queued; any other click (a button, a link) has
 * its default held back, so nothing submits or navigates natively; consecutive inputs into one field keep their last value.
 */
export const CAPTURE_SCRIPT =
  '(function(){var q=[],t=["click","input","change","submit"],h=function(e){var n=e.target,y=e.type,l=q[q.length-1],' +
  'k=/^(checkbox|radio)$/.test(n.type);if(y=="click"&&!k&&n.closest&&n.closest("label"))return;e.stopImmediatePropagation();' +
  'if(y=="submit"||y=="click"&&!k)e.preventDefault();if(y=="submit"||y!="click"&&k)return;' +
  'if(y!="click"&&l&&l[0]!="click"&&l[1]==n)q.pop();q.push([y,n,k?n.checked:n.value])};' +
  't.forEach(function(y){addEventListener(y,h,true)});' +
  `window.${EARLY_INPUT_GLOBAL}={queue:q,stop:function(){t.forEach(function(y){removeEventListener(y,h,true)})}}})()`;

/**
 * At the end of the body, with the app's module in `data-src`: the module is requested once the browser reports the
 * page's first contentful paint (a frame after the paint where paint timing is missing; at once on a hidden page,
 * which does not paint). A frame alone was not enough: under load the paint reached the screen after the request.
 */
export const LOADER_SCRIPT =
  '(function(){var s=document.currentScript.getAttribute("data-src"),d=0,l=function(){if(d)return;d=1;' +
  'var e=document.createElement("script");e.type="module";e.src=s;document.head.appendChild(e)},P=window.PerformanceObserver;' +
  'if(document.hidden)l();else if(P&&(P.supportedEntryTypes||[]).indexOf("paint")>=0)' +
  'new P(function(t){if(t.getEntriesByName("first-contentful-paint").length)l()}).observe({type:"paint",buffered:true});' +
  'else requestAnimationFrame(function(){setTimeout(l,0)})})()';

/** The page's inline scripts, in the order they appear. */
export const PAGE_SCRIPTS = [CAPTURE_SCRIPT, LOADER_SCRIPT] as const;
