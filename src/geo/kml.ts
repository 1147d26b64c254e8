/**
 * KML geometry text (developers.google.com/kml/documentation/kmlreference#geometry) for
 * ST_GEOGFROMKML and ST_ASKML (GoogleSQL geography_functions#st_geogfromkml, #st_askml).
 *
 * Reading accepts what the documentation lists — `<Point>` and `<LineString>` with a
 * `<coordinates>` element only, `<Polygon>` with boundary elements only
 * (`<outerBoundaryIs><LinearRing><coordinates>`, any number of `<innerBoundaryIs>`), and
 * `<MultiGeometry>` of those (nested or not) — and gives the raw parts parse.ts builds (geodesic
 * edges, each ring selecting the smaller region, as WKT does). Coordinates are `lng,lat` tuples
 * separated by white space. Other elements, attributes and altitudes are not supported.
 *
 * Writing: one element per component, `<MultiGeometry>` around several, coordinates as the
 * shortest text that reads back to the same double ("as few digits as possible without loss of
 * precision"), polygon rings closed and in WKT's printed order. The empty geography, whose KML
 * form the documentation does not give, is not supported.
 */
import { fail, isEmpty, printedLoop, unsupported, type Geo, type Poly, type Pt } from './model.js';
import type { Raw, XY } from './parse.js';

// ---------- reading ----------

interface Elem {
  name: string;
  children: Elem[];
  text: string;
}

/** A minimal XML element reader (elements and text; comments and declarations are skipped). */
function parseXml(s: string): Elem[] {
  const root: Elem = { name: '', children: [], text: '' };
  const stack = [root];
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('<!--', i)) {
      const e = s.indexOf('-->', i);
      if (e < 0) fail('Unterminated comment in KML');
      i = e + 3;
      continue;
    }
    if (s.startsWith('<?', i)) {
      const e = s.indexOf('?>', i);
      if (e < 0) fail('Unterminated declaration in KML');
      i = e + 2;
      continue;
    }
    if (s[i] === '<') {
      const e = s.indexOf('>', i);
      if (e < 0) fail('Unterminated tag in KML');
      const body = s.slice(i + 1, e).trim();
      i = e + 1;
      if (body.startsWith('/')) {
        const top = stack.pop()!;
        if (stack.length === 0 || top.name !== body.slice(1).trim()) fail(`Unexpected closing tag </${body.slice(1).trim()}> in KML`);
        continue;
      }
      const selfClosing = body.endsWith('/');
      const tag = (selfClosing ? body.slice(0, -1) : body).trim();
      if (!/^[A-Za-z_][\w.-]*$/.test(tag)) unsupported(`KML tags with attributes or namespaces (<${tag}>)`);
      const el: Elem = { name: tag, children: [], text: '' };
      stack[stack.length - 1].children.push(el);
      if (!selfClosing) stack.push(el);
      continue;
    }
    const e = s.indexOf('<', i);
    const text = s.slice(i, e < 0 ? s.length : e);
    i = e < 0 ? s.length : e;
    if (text.trim()) {
      if (stack.length === 1) fail('Text outside of a KML element');
      stack[stack.length - 1].text += text;
    }
  }
  if (stack.length !== 1) fail(`Unclosed KML element <${stack[stack.length - 1].name}>`);
  return root.children;
}

function coordinates(el: Elem, what: string): XY[] {
  if (el.children.length !== 1 || el.children[0].name !== 'coordinates') unsupported(`${what} elements other than a single <coordinates>`);
  const c = el.children[0];
  if (c.children.length) fail('<coordinates> must contain text only');
  const tuples = c.text.trim().split(/\s+/).filter((t) => t.length);
  return tuples.map((t) => {
    const parts = t.split(',');
    if (parts.length === 3) unsupported('KML coordinates with an altitude');
    if (parts.length !== 2 || parts.some((p) => !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(p))) fail(`Invalid KML coordinates: ${t}`);
    return [Number(parts[0]), Number(parts[1])] as XY;
  });
}

function ringOf(boundary: Elem): XY[] {
  if (boundary.children.length !== 1 || boundary.children[0].name !== 'LinearRing') fail(`<${boundary.name}> must contain one <LinearRing>`);
  return coordinates(boundary.children[0], '<LinearRing>');
}

function readGeometry(el: Elem, raw: Raw): void {
  switch (el.name) {
    case 'Point': {
      const c = coordinates(el, '<Point>');
      if (c.length !== 1) fail(`A KML Point needs exactly one coordinate, got ${c.length}`);
      raw.points.push(c[0]);
      return;
    }
    case 'LineString':
      raw.lines.push(coordinates(el, '<LineString>'));
      return;
    case 'Polygon': {
      const outer = el.children.filter((c) => c.name === 'outerBoundaryIs');
      const inner = el.children.filter((c) => c.name === 'innerBoundaryIs');
      if (outer.length + inner.length !== el.children.length) unsupported('<Polygon> elements other than boundaries');
      if (outer.length !== 1) fail('A KML Polygon needs exactly one <outerBoundaryIs>');
      raw.polys.push([ringOf(outer[0]), ...inner.map(ringOf)]);
      return;
    }
    case 'MultiGeometry':
      if (el.text.trim()) fail('<MultiGeometry> must contain geometries only');
      for (const c of el.children) readGeometry(c, raw);
      return;
    default:
      unsupported(`the KML element <${el.name}>`);
  }
}

/** KML geometry text → raw parts (build them with parse.ts `build`). */
export function parseKml(s: string): Raw {
  const top = parseXml(s);
  if (top.length !== 1) fail(`Expected one KML geometry element, got ${top.length}`);
  const raw: Raw = { points: [], lines: [], polys: [] };
  readGeometry(top[0], raw);
  return raw;
}

// ---------- writing ----------

/** A coordinate as its shortest round-trip text; magnitudes below 1e-4 (exponent form) are not supported. */
function coord(x: number): string {
  if (Object.is(x, -0)) return '-0';
  if (x !== 0 && Math.abs(x) < 1e-4) unsupported('KML output of coordinates closer than 1e-4 degrees to zero');
  return String(x);
}

const tuples = (ps: Pt[]): string => `<coordinates>${ps.map((p) => `${coord(p.lng)},${coord(p.lat)}`).join(' ')}</coordinates>`;
const ring = (l: Pt[], hole: boolean): string => {
  const vs = printedLoop(l, hole);
  return `<LinearRing>${tuples([...vs, vs[0]])}</LinearRing>`;
};
const polygon = (p: Poly): string =>
  `<Polygon><outerBoundaryIs>${ring(p.shell, false)}</outerBoundaryIs>${p.holes.map((h) => `<innerBoundaryIs>${ring(h, true)}</innerBoundaryIs>`).join('')}</Polygon>`;

/** ST_ASKML: the KML geometry of a non-empty geography. */
export function toKml(g: Geo): string {
  if (isEmpty(g)) unsupported('the empty geography');
  const parts = [
    ...g.points.map((p) => `<Point>${tuples([p])}</Point>`),
    ...g.lines.map((l) => `<LineString>${tuples(l)}</LineString>`),
    ...g.polys.map(polygon),
  ];
  return parts.length === 1 ? parts[0] : `<MultiGeometry>${parts.join('')}</MultiGeometry>`;
}
