// Builds the map's glyph ranges (signed distance fields in MapLibre's glyph PBF format) from the
// DejaVu Sans fonts of the npm package dejavu-fonts-ttf (free licence, see its LICENSE), parsed with
// opentype.js. The output is committed under src/maps/glyphs/, so neither package is needed to run the
// server; run this again only to change the fonts or ranges:
//   npm install --no-save dejavu-fonts-ttf@2.37.3 opentype.js@1.3.4 && node tools/build-glyphs.mjs
// (or GLYPH_TOOLS_DIR=<a folder where both are installed> node tools/build-glyphs.mjs)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PbfWriter } from 'pbf';

const require = createRequire(process.env.GLYPH_TOOLS_DIR ? join(process.env.GLYPH_TOOLS_DIR, 'x.js') : import.meta.url);
const opentype = require('opentype.js');
const fontDir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'maps', 'glyphs');

const FONTS = { 'DejaVu Sans Book': 'DejaVuSans.ttf', 'DejaVu Sans Bold': 'DejaVuSans-Bold.ttf' };
// Latin, Latin Extended A/B, spacing modifiers (the ʻokina of Oʻahu), combining marks, Greek and
// Cyrillic, Latin Extended Additional (Vietnamese), punctuation. Other ranges are served empty.
const RANGES = [0, 256, 512, 768, 1024, 7680, 8192];
const SIZE = 24; // MapLibre's glyph size in pixels
const BUFFER = 3; // pixels of field around each glyph
const RADIUS = 8; // distance, in pixels, the field spans
const CUTOFF = 0.25; // share of the range outside the outline (edge at 191/255)

for (const [stack, file] of Object.entries(FONTS)) {
  const font = opentype.parse(readFileSync(join(fontDir, file)).buffer);
  const scale = SIZE / font.unitsPerEm;
  mkdirSync(join(out, stack), { recursive: true });
  for (const start of RANGES) {
    const pbf = new PbfWriter();
    pbf.writeMessage(1, (_, p) => {
      p.writeStringField(1, stack);
      p.writeStringField(2, `${start}-${start + 255}`);
      for (let code = start; code < start + 256; code++) {
        const g = font.charToGlyph(String.fromCodePoint(code));
        if (!g || g.index === 0) continue;
        const glyph = rasterize(g, scale);
        p.writeMessage(3, writeGlyph, { id: code, ...glyph });
      }
    });
    writeFileSync(join(out, stack, `${start}-${start + 255}.pbf`), pbf.finish());
  }
  console.log(`${stack}: ${RANGES.length} ranges`);
}

function writeGlyph(g, p) {
  p.writeVarintField(1, g.id);
  if (g.bitmap) p.writeBytesField(2, g.bitmap);
  p.writeVarintField(3, g.width);
  p.writeVarintField(4, g.height);
  p.writeSVarintField(5, g.left);
  p.writeSVarintField(6, g.top);
  p.writeVarintField(7, g.advance);
}

/** The glyph's metrics in pixels and its signed distance field, (width + 6) × (height + 6) bytes. */
function rasterize(glyph, scale) {
  const advance = Math.round(glyph.advanceWidth * scale);
  // Outline in pixels, y down, baseline at 0; curves flattened into segments.
  const path = glyph.getPath(0, 0, SIZE);
  const segments = flatten(path.commands);
  if (segments.length === 0) return { width: 0, height: 0, left: 0, top: 0, advance };
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [ax, ay, bx, by] of segments) {
    x0 = Math.min(x0, ax, bx);
    y0 = Math.min(y0, ay, by);
    x1 = Math.max(x1, ax, bx);
    y1 = Math.max(y1, ay, by);
  }
  const left = Math.floor(x0);
  const topY = Math.floor(y0);
  const width = Math.ceil(x1) - left;
  const height = Math.ceil(y1) - topY;
  const w = width + 2 * BUFFER;
  const h = height + 2 * BUFFER;
  const bitmap = new Uint8Array(w * h);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const px = left - BUFFER + i + 0.5;
      const py = topY - BUFFER + j + 0.5;
      let d2 = Infinity;
      let winding = 0;
      for (const [ax, ay, bx, by] of segments) {
        d2 = Math.min(d2, segmentDistance2(px, py, ax, ay, bx, by));
        if (ay <= py) {
          if (by > py && cross(ax, ay, bx, by, px, py) > 0) winding++;
        } else if (by <= py && cross(ax, ay, bx, by, px, py) < 0) winding--;
      }
      const signed = (winding !== 0 ? -1 : 1) * Math.sqrt(d2);
      const v = 255 - 255 * (signed / RADIUS + CUTOFF);
      bitmap[j * w + i] = Math.max(0, Math.min(255, Math.round(v)));
    }
  }
  // top: pixels from the baseline up to the bitmap's top edge (without the buffer), as fontnik writes.
  return { bitmap, width, height, left, top: -topY, advance };
}

function cross(ax, ay, bx, by, px, py) {
  return (bx - ax) * (py - ay) - (px - ax) * (by - ay);
}

function segmentDistance2(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  const x = ax + t * dx - px;
  const y = ay + t * dy - py;
  return x * x + y * y;
}

/** Line segments of a path's contours; quadratic and cubic curves become 8 segments each. */
function flatten(commands) {
  const segs = [];
  let [sx, sy, cx, cy] = [0, 0, 0, 0];
  const line = (x, y) => {
    if (x !== cx || y !== cy) segs.push([cx, cy, x, y]);
    cx = x;
    cy = y;
  };
  for (const c of commands) {
    if (c.type === 'M') {
      if (cx !== sx || cy !== sy) line(sx, sy);
      sx = cx = c.x;
      sy = cy = c.y;
    } else if (c.type === 'L') line(c.x, c.y);
    else if (c.type === 'Q') {
      const [x0, y0] = [cx, cy];
      for (let k = 1; k <= 8; k++) {
        const t = k / 8;
        const u = 1 - t;
        line(u * u * x0 + 2 * u * t * c.x1 + t * t * c.x, u * u * y0 + 2 * u * t * c.y1 + t * t * c.y);
      }
    } else if (c.type === 'C') {
      const [x0, y0] = [cx, cy];
      for (let k = 1; k <= 8; k++) {
        const t = k / 8;
        const u = 1 - t;
        line(
          u * u * u * x0 + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x,
          u * u * u * y0 + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t * t * t * c.y,
        );
      }
    } else if (c.type === 'Z') line(sx, sy);
  }
  if (cx !== sx || cy !== sy) line(sx, sy);
  return segs;
}
