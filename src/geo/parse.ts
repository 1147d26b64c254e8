/**
 * Readers for WKT, WKB and GeoJSON into the GEOGRAPHY model (model.ts). Each reader produces raw
 * longitude/latitude parts; `build` turns them into a normalised, validated geography.
 *
 * WKT: the OGC types, case-insensitive, `EMPTY`, MULTIPOINT items with or without parentheses;
 * Z/M coordinates are not supported. WKB goes through `wkx`. GeoJSON: geometry objects only
 * (Point … GeometryCollection); its edges are straight in longitude/latitude, so BigQuery
 * tessellates them into geodesic edges (`planar`, tessellate.ts), as WKT and WKB do with
 * `planar => TRUE`.
 */
import { Geometry } from 'wkx';
import {
  checkLine,
  fail,
  makePoly,
  normalPoints,
  pt,
  unsupported,
  validatePolys,
  type Geo,
  type Poly,
  type Pt,
} from './model.js';
import { checkOverlaps } from './relate.js';
import { unprojectChain } from './tessellate.js';

export type XY = [number, number];
export interface Raw {
  points: XY[];
  lines: XY[][];
  polys: XY[][][];
}

const rawEmpty = (): Raw => ({ points: [], lines: [], polys: [] });

export interface BuildOptions {
  oriented?: boolean;
  planar?: boolean;
}

/** A normalised geography from raw parts. */
export function build(raw: Raw, o: BuildOptions = {}): Geo {
  const path = (xy: XY[]): Pt[] => (o.planar ? unprojectChain(xy) : xy).map(([x, y]) => pt(x, y));
  const points = normalPoints(raw.points.map(([x, y]) => pt(x, y)));
  const lines = raw.lines.map((l) => checkLine(path(l)));
  // A tessellated ring ends on its first vertex (possibly unwrapped by 360°): close it exactly.
  const ring = (xy: XY[]): Pt[] => {
    const vs = path(xy);
    const closed = xy.length > 1 && xy[0][0] === xy[xy.length - 1][0] && xy[0][1] === xy[xy.length - 1][1];
    return closed && o.planar ? [...vs.slice(0, -1), vs[0]] : vs;
  };
  const polys: Poly[] = raw.polys.map((rings) => makePoly(rings.map(ring), !!o.oriented));
  validatePolys(polys);
  const g = { points, lines, polys };
  checkOverlaps(g);
  return g;
}

// ---------- WKT ----------

class WktReader {
  private i = 0;
  constructor(private readonly s: string) {}

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
  private peek(): string {
    this.ws();
    return this.s[this.i] ?? '';
  }
  private expect(ch: string): void {
    if (this.peek() !== ch) fail(`Unexpected ${this.i < this.s.length ? `'${this.s[this.i]}'` : 'end of input'} at position ${this.i + 1}; expected '${ch}'`);
    this.i++;
  }
  word(): string {
    this.ws();
    const m = /^[A-Za-z]+/.exec(this.s.slice(this.i));
    if (!m) fail(`Expected a geometry type at position ${this.i + 1}`);
    this.i += m![0].length;
    return m![0].toUpperCase();
  }
  private empty(): boolean {
    this.ws();
    if (/^EMPTY\b/i.test(this.s.slice(this.i))) {
      this.i += 5;
      return true;
    }
    if (/^[ZM]/i.test(this.s.slice(this.i))) unsupported('WKT with Z or M coordinates');
    return false;
  }
  private num(): number {
    this.ws();
    const m = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (!m) fail(`Expected a number at position ${this.i + 1}`);
    this.i += m![0].length;
    return Number(m![0]);
  }
  private coord(): XY {
    const x = this.num();
    const y = this.num();
    if (/^[\d+.-]/.test(this.peek())) unsupported('WKT with Z or M coordinates');
    return [x, y];
  }
  private list<T>(item: () => T): T[] {
    this.expect('(');
    const out = [item()];
    while (this.peek() === ',') {
      this.i++;
      out.push(item());
    }
    this.expect(')');
    return out;
  }
  private coords = (): XY[] => this.list(() => this.coord());
  private rings = (): XY[][] => this.list(() => this.coords());

  geometry(into: Raw): void {
    const type = this.word();
    if (type === 'GEOMETRYCOLLECTION') {
      if (this.empty()) return;
      this.list(() => this.geometry(into));
      return;
    }
    if (this.empty()) {
      if (!['POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON'].includes(type)) fail(`Unknown geometry type ${type}`);
      return;
    }
    switch (type) {
      case 'POINT':
        this.expect('(');
        into.points.push(this.coord());
        this.expect(')');
        return;
      case 'LINESTRING':
        into.lines.push(this.coords());
        return;
      case 'POLYGON':
        into.polys.push(this.rings());
        return;
      case 'MULTIPOINT':
        this.list(() => {
          if (this.peek() === '(') {
            this.i++;
            into.points.push(this.coord());
            this.expect(')');
          } else if (!this.empty()) into.points.push(this.coord());
        });
        return;
      case 'MULTILINESTRING':
        this.list(() => (this.empty() ? undefined : into.lines.push(this.coords())));
        return;
      case 'MULTIPOLYGON':
        this.list(() => (this.empty() ? undefined : into.polys.push(this.rings())));
        return;
      default:
        fail(`Unknown geometry type ${type}`);
    }
  }

  done(): void {
    this.ws();
    if (this.i < this.s.length) fail(`Unexpected '${this.s[this.i]}' at position ${this.i + 1}`);
  }
}

export function parseWkt(s: string): Raw {
  if (/^\s*fullglobe\s*$/i.test(s)) unsupported('the full globe');
  const r = new WktReader(s);
  const raw = rawEmpty();
  r.geometry(raw);
  r.done();
  return raw;
}

// ---------- GeoJSON ----------

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function position(v: Json): XY {
  if (!Array.isArray(v) || v.length < 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number') return fail('Invalid GeoJSON position');
  if (v.length > 2) unsupported('GeoJSON positions with more than two coordinates');
  return [v[0], v[1]];
}
const positions = (v: Json): XY[] => (Array.isArray(v) ? v.map(position) : fail('Invalid GeoJSON coordinates'));
const ringsOf = (v: Json): XY[][] => (Array.isArray(v) ? v.map(positions) : fail('Invalid GeoJSON coordinates'));

function geojsonInto(o: Json, into: Raw): void {
  if (!o || typeof o !== 'object' || Array.isArray(o)) fail('Invalid GeoJSON: expected an object');
  const obj = o as { [k: string]: Json };
  const type = obj.type;
  if (type === 'GeometryCollection') {
    if (!Array.isArray(obj.geometries)) fail('Invalid GeoJSON: GeometryCollection without geometries');
    for (const g of obj.geometries as Json[]) geojsonInto(g, into);
    return;
  }
  const c = obj.coordinates;
  if (!Array.isArray(c)) fail(`Invalid GeoJSON: ${String(type)} without coordinates`);
  const arr = c as Json[];
  switch (type) {
    case 'Point':
      if (arr.length) into.points.push(position(arr));
      return;
    case 'MultiPoint':
      into.points.push(...positions(arr));
      return;
    case 'LineString':
      if (arr.length) into.lines.push(positions(arr));
      return;
    case 'MultiLineString':
      into.lines.push(...ringsOf(arr).filter((l) => l.length));
      return;
    case 'Polygon':
      if (arr.length) into.polys.push(ringsOf(arr));
      return;
    case 'MultiPolygon':
      for (const p of arr) if (Array.isArray(p) && p.length) into.polys.push(ringsOf(p));
      return;
    default:
      fail(`Invalid GeoJSON type: ${String(type)}`);
  }
}

export function parseGeoJson(s: string): Raw {
  let o: Json;
  try {
    o = JSON.parse(s) as Json;
  } catch {
    return fail('Invalid GeoJSON: not valid JSON');
  }
  const raw = rawEmpty();
  geojsonInto(o, raw);
  return raw;
}

// ---------- WKB ----------

export function parseWkb(b: Uint8Array): Raw {
  let g: Geometry;
  try {
    g = Geometry.parse(Buffer.from(b));
  } catch (e) {
    return fail(`Invalid WKB: ${(e as Error).message}`);
  }
  if (g.hasZ || g.hasM) unsupported('WKB with Z or M coordinates');
  const raw = rawEmpty();
  geojsonInto(g.toGeoJSON() as Json, raw);
  return raw;
}
