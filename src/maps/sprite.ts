import { crc32, deflateSync } from 'node:zlib';

/** Icon colours of each style's sprite (the POI dot of the `places` layer). */
const POI_COLORS: Record<string, [number, number, number]> = {
  'radar-default-v1': [0xe0, 0x66, 0x2b],
  'radar-light-v1': [0x8a, 0x8a, 0x8a],
  'radar-dark-v1': [0xf0, 0xa0, 0x60],
};

/** The sprite of a style at a pixel ratio: its index (icon name → place in the image) and its PNG. */
export interface Sprite {
  index: Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }>;
  png: Buffer;
}

/**
 * A style's sprite, drawn here rather than shipped as image files: one icon, `poi`, a filled dot with
 * a white ring, at 12 px (or 24 px at ratio 2). Null for an unknown style.
 */
export function styleSprite(style: string, ratio: 1 | 2): Sprite | null {
  const color = POI_COLORS[style];
  if (!color) return null;
  const size = 12 * ratio;
  const rgba = new Uint8Array(size * size * 4);
  const c = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      // Anti-aliased edges: coverage falls off over one pixel.
      const outer = Math.max(0, Math.min(1, c - d));
      const inner = Math.max(0, Math.min(1, c - 2 * ratio - d));
      const i = (y * size + x) * 4;
      rgba[i] = Math.round(255 * (1 - inner) + color[0] * inner);
      rgba[i + 1] = Math.round(255 * (1 - inner) + color[1] * inner);
      rgba[i + 2] = Math.round(255 * (1 - inner) + color[2] * inner);
      rgba[i + 3] = Math.round(255 * outer);
    }
  }
  return {
    index: { poi: { x: 0, y: 0, width: size, height: size, pixelRatio: ratio } },
    png: encodePng(size, size, rgba),
  };
}

/** A PNG (8-bit RGBA, no filtering) of `rgba`, rows top to bottom. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
