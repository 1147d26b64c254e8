/**
 * Writers in BigQuery's formats: WKT (`POINT(1 2)`, `MULTIPOINT(1 1, 2 2)`, mixed dimensions as a
 * GEOMETRYCOLLECTION of the point, line and polygon parts, empty as `GEOMETRYCOLLECTION EMPTY`),
 * GeoJSON (BigQuery's spacing, geodesic edges tessellated to 10 m, see tessellate.ts) and
 * little-endian WKB. Coordinates print with 15 significant digits (fmt.ts).
 */
import { g15 } from './fmt.js';
import { printedLoop, type Geo, type Poly, type Pt } from './model.js';
import { projectChain } from './tessellate.js';

const xy = (p: Pt): string => `${g15(p.lng)} ${g15(p.lat)}`;
const ring = (l: Pt[], hole: boolean): string => {
  const vs = printedLoop(l, hole);
  return `(${[...vs, vs[0]].map(xy).join(', ')})`;
};
const polyBody = (p: Poly): string => `(${[ring(p.shell, false), ...p.holes.map((h) => ring(h, true))].join(', ')})`;

export function toWkt(g: Geo): string {
  const parts: string[] = [];
  if (g.points.length === 1) parts.push(`POINT(${xy(g.points[0])})`);
  else if (g.points.length) parts.push(`MULTIPOINT(${g.points.map(xy).join(', ')})`);
  if (g.lines.length === 1) parts.push(`LINESTRING(${g.lines[0].map(xy).join(', ')})`);
  else if (g.lines.length) parts.push(`MULTILINESTRING(${g.lines.map((l) => `(${l.map(xy).join(', ')})`).join(', ')})`);
  if (g.polys.length === 1) parts.push(`POLYGON${polyBody(g.polys[0])}`);
  else if (g.polys.length) parts.push(`MULTIPOLYGON(${g.polys.map(polyBody).join(', ')})`);
  if (!parts.length) return 'GEOMETRYCOLLECTION EMPTY';
  return parts.length === 1 ? parts[0] : `GEOMETRYCOLLECTION(${parts.join(', ')})`;
}

// ---------- GeoJSON ----------

const pos = (p: [number, number]): string => `[${g15(p[0])}, ${g15(p[1])}]`;
const chain = (vs: Pt[]): string => {
  const out = projectChain(
    vs.map((p) => p.v),
    vs.map((p) => [p.lng, p.lat]),
  );
  return `[ ${out.map(pos).join(', ')} ]`;
};
const loopChain = (l: Pt[], hole: boolean): string => {
  const vs = printedLoop(l, hole);
  return chain([...vs, vs[0]]);
};
const polyCoords = (p: Poly): string => `[ ${[loopChain(p.shell, false), ...p.holes.map((h) => loopChain(h, true))].join(', ')} ]`;
const obj = (type: string, coords: string): string => `{ "type": "${type}", "coordinates": ${coords} }`;

export function toGeoJson(g: Geo): string {
  const parts: string[] = [];
  if (g.points.length === 1) parts.push(obj('Point', pos([g.points[0].lng, g.points[0].lat])));
  else if (g.points.length) parts.push(obj('MultiPoint', `[ ${g.points.map((p) => pos([p.lng, p.lat])).join(', ')} ]`));
  if (g.lines.length === 1) parts.push(obj('LineString', chain(g.lines[0])));
  else if (g.lines.length) parts.push(obj('MultiLineString', `[ ${g.lines.map(chain).join(', ')} ]`));
  if (g.polys.length === 1) parts.push(obj('Polygon', polyCoords(g.polys[0])));
  else if (g.polys.length) parts.push(obj('MultiPolygon', `[ ${g.polys.map(polyCoords).join(', ')} ]`));
  const body = parts.length === 1 ? parts[0] : `{ "type": "GeometryCollection", "geometries": [ ${parts.join(', ')}${parts.length ? ' ' : ''}] }`;
  return `${body} `;
}

// ---------- WKB ----------

class Bytes {
  private readonly chunks: Buffer[] = [];
  header(type: number): void {
    const b = Buffer.alloc(5);
    b.writeUInt8(1, 0);
    b.writeUInt32LE(type, 1);
    this.chunks.push(b);
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n, 0);
    this.chunks.push(b);
  }
  pts(ps: Pt[]): void {
    const b = Buffer.alloc(16 * ps.length);
    ps.forEach((p, i) => {
      b.writeDoubleLE(p.lng, 16 * i);
      b.writeDoubleLE(p.lat, 16 * i + 8);
    });
    this.chunks.push(b);
  }
  bytes = (): Uint8Array => new Uint8Array(Buffer.concat(this.chunks));
}

function wkbPoly(w: Bytes, p: Poly): void {
  w.header(3);
  const loops = [printedLoop(p.shell, false), ...p.holes.map((h) => printedLoop(h, true))];
  w.u32(loops.length);
  for (const l of loops) {
    w.u32(l.length + 1);
    w.pts([...l, l[0]]);
  }
}

function wkbLine(w: Bytes, l: Pt[]): void {
  w.header(2);
  w.u32(l.length);
  w.pts(l);
}

export function toWkb(g: Geo): Uint8Array {
  const w = new Bytes();
  const kinds = [g.points.length, g.lines.length, g.polys.length].filter((n) => n > 0).length;
  const inCollection = kinds > 1;
  if (inCollection || kinds === 0) {
    w.header(7);
    w.u32(kinds);
  }
  if (g.points.length === 1) {
    w.header(1);
    w.pts(g.points);
  } else if (g.points.length) {
    w.header(4);
    w.u32(g.points.length);
    for (const p of g.points) {
      w.header(1);
      w.pts([p]);
    }
  }
  if (g.lines.length === 1) wkbLine(w, g.lines[0]);
  else if (g.lines.length) {
    w.header(5);
    w.u32(g.lines.length);
    for (const l of g.lines) wkbLine(w, l);
  }
  if (g.polys.length === 1) wkbPoly(w, g.polys[0]);
  else if (g.polys.length) {
    w.header(6);
    w.u32(g.polys.length);
    for (const p of g.polys) wkbPoly(w, p);
  }
  return w.bytes();
}
