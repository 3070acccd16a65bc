import { create } from 'qrcode';
import { useMemo } from 'react';

/** The quiet zone around the symbol, in modules (the QR standard asks for four). */
const QUIET_ZONE = 4;

/** The dark modules of a QR code of `text` as one SVG path, in module units, and the symbol's size with its quiet zone. */
export function qrPath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) path += `M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: modules.size + QUIET_ZONE * 2, path };
}

/** A QR code drawn here (qrcode computes the modules; nothing leaves the page), dark on white in either colour scheme so cameras read it. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => qrPath(text), [text]);
  return (
    <svg className="qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width={size * 4} height={size * 4} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
