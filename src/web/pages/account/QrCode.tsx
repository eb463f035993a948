import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** Quiet zone around the code, in modules (ISO/IEC 18004 asks for four). */
const QUIET_ZONE = 4;

/**
 * A QR code drawn as one SVG path in the page itself: no image request, no data URL for the
 * content security policy to weigh, and the text (an otpauth link holding a secret) never leaves
 * the browser. Error correction M, what authenticator apps read from a screen without trouble.
 */
export function QrCode({
  text,
  label,
  size = 200,
}: {
  text: string;
  label: string;
  size?: number;
}) {
  const { path, modules } = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(text);
    code.make();
    const count = code.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row += 1) {
      for (let column = 0; column < count; column += 1) {
        if (code.isDark(row, column)) d += `M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { path: d, modules: count + QUIET_ZONE * 2 };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
    >
      <rect width={modules} height={modules} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
