/** The diagram as a standalone SVG file: the printable copy cloned with every style it shows written inline. */

/** The properties the studio's stylesheet sets on the diagram's shapes and text. */
const STYLED = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline'] as const;

/** An SVG document of `source` that needs no stylesheet: each element carries its computed styles. */
export function standaloneSvg(source: SVGSVGElement): string {
  const copy = source.cloneNode(true) as SVGSVGElement;
  const originals = [source, ...source.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  originals.forEach((original, index) => {
    const target = copies[index]!;
    const computed = getComputedStyle(original);
    const inline = STYLED.map((property) => `${property}:${computed.getPropertyValue(property)}`).join(';');
    target.setAttribute('style', inline);
    target.removeAttribute('class');
  });
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const viewBox = source.viewBox.baseVal;
  copy.setAttribute('width', String(viewBox.width));
  copy.setAttribute('height', String(viewBox.height));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

/** Offers `text` to the browser as a download called `name`. */
export function download(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has its own copy once clicked.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
