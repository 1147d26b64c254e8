/**
 * The eight TPC-H-shaped tables, generated inside DuckDB by a seeded SQL generator (no dbgen, no
 * downloads): every pseudo-random choice is `hash(row, salt, seed)` of DuckDB, so a (scale factor,
 * seed) pair gives the same rows on every run. Row counts, key relations and value domains follow
 * the TPC-H schema (SF × 10,000 suppliers, 200,000 parts with 4 suppliers each, 150,000 customers,
 * 1,500,000 orders with 1–7 line items; order keys dense, customers whose key is a multiple of 3
 * place no orders); text columns are drawn from small word lists holding the words the 22 queries
 * look for. Money and quantities are DOUBLE (BigQuery FLOAT64), keys BIGINT (INT64), dates DATE.
 */

/** Tables in load order. */
export const TPCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
export type TpchTable = (typeof TPCH_TABLES)[number];

const NATIONS: [string, number][] = [
  ['ALGERIA', 0], ['ARGENTINA', 1], ['BRAZIL', 1], ['CANADA', 1], ['EGYPT', 4], ['ETHIOPIA', 0], ['FRANCE', 3],
  ['GERMANY', 3], ['INDIA', 2], ['INDONESIA', 2], ['IRAN', 4], ['IRAQ', 4], ['JAPAN', 2], ['JORDAN', 4], ['KENYA', 0],
  ['MOROCCO', 0], ['MOZAMBIQUE', 0], ['PERU', 1], ['CHINA', 2], ['ROMANIA', 3], ['SAUDI ARABIA', 4], ['VIETNAM', 2],
  ['RUSSIA', 3], ['UNITED KINGDOM', 3], ['UNITED STATES', 1],
];
const REGIONS = ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'];
const COLORS = (
  'almond antique aquamarine azure beige bisque black blanched blue blush brown burlywood burnished chartreuse chiffon ' +
  'chocolate coral cornflower cornsilk cream cyan dark deep dim dodger drab firebrick floral forest frosted gainsboro ' +
  'ghost goldenrod green grey honeydew hot indian ivory khaki lace lavender lawn lemon light lime linen magenta maroon ' +
  'medium metallic midnight mint misty moccasin navajo navy olive orange orchid pale papaya peach peru pink plum powder ' +
  'puff purple red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring steel tan thistle ' +
  'tomato turquoise violet wheat white yellow'
).split(' ');
const WORDS = (
  'special requests pending deposits furiously carefully quickly packages accounts ideas theodolites foxes regular ' +
  'express final bold ironic silent unusual even blithely slyly instructions dependencies platelets asymptotes'
).split(' ');
const SEGMENTS = ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'];
const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'];
const INSTRUCTIONS = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'];
const MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'];
const TYPE1 = ['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'];
const TYPE2 = ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'];
const TYPE3 = ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'];
const CONTAINER1 = ['SM', 'LG', 'MED', 'JUMBO', 'WRAP'];
const CONTAINER2 = ['CASE', 'BOX', 'BAG', 'JAR', 'PKG', 'PACK', 'CAN', 'DRUM'];

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
const list = (xs: string[]) => `[${xs.map(sqlString).join(', ')}]`;

/** Row counts of the scaled tables at scale factor `sf`. */
export function tpchCounts(sf: number): { supplier: number; part: number; customer: number; orders: number } {
  const n = (base: number) => Math.max(1, Math.round(base * sf));
  return { supplier: n(10_000), part: n(200_000), customer: n(150_000), orders: n(1_500_000) };
}

/**
 * DuckDB statements creating the eight tables (plus two scratch tables, dropped at the end) in the
 * current schema of a DuckDB connection.
 * @param sf scale factor (0.01 for tests, 0.1 and 1 in the bench)
 * @param seed the generator's seed (same seed, same rows)
 */
export function tpchGenerateSql(sf: number, seed = 17): string[] {
  const { supplier: S, part: P, customer: C, orders: O } = tpchCounts(sf);
  /** A pseudo-random BIGINT in [0, n) for row expression `row` and choice `salt`. */
  const r = (row: string, salt: number, n: number) => `CAST((hash((${row}) * 1000 + ${salt}, ${seed}) >> 24) % ${n} AS BIGINT)`;
  const pick = (xs: string[], row: string, salt: number) => `${list(xs)}[1 + ${r(row, salt, xs.length)}]`;
  const words = (row: string, salt: number, k: number) => Array.from({ length: k }, (_, i) => pick(WORDS, row, salt + i)).join(` || ' ' || `);
  const money = (row: string, salt: number, lo: number, hi: number) => `(${lo} + ${r(row, salt, Math.round((hi - lo) * 100) + 1)} / 100.0)`;
  const phone = (nation: string, row: string, salt: number) =>
    `CAST(${nation} + 10 AS VARCHAR) || '-' || CAST(100 + ${r(row, salt, 900)} AS VARCHAR) || '-' || CAST(100 + ${r(row, salt + 1, 900)} AS VARCHAR) || '-' || CAST(1000 + ${r(row, salt + 2, 9000)} AS VARCHAR)`;
  // TPC-H's retail price of a part, and the i-th (0..3) supplier of a part.
  const retail = (p: string) => `((90000 + ((${p} // 10) % 20001) + 100 * (${p} % 1000)) / 100.0)`;
  const supplierOf = (p: string, i: string) => `((${p} + ${i} * (${Math.max(1, Math.floor(S / 4))} + (${p} - 1) // ${S})) % ${S} + 1)`;
  const seq = (n: number, col: string) => `(SELECT CAST(${col} AS BIGINT) AS ${col} FROM range(1, ${n + 1}) AS g(${col}))`;
  return [
    `CREATE OR REPLACE TABLE region AS SELECT CAST(k AS BIGINT) AS r_regionkey, ${list(REGIONS)}[k + 1] AS r_name, ${words('k', 1, 6)} AS r_comment FROM range(0, 5) AS g(k)`,
    `CREATE OR REPLACE TABLE nation AS SELECT CAST(k AS BIGINT) AS n_nationkey, ${list(NATIONS.map((n) => n[0]))}[k + 1] AS n_name, ` +
      `CAST([${NATIONS.map((n) => n[1]).join(', ')}][k + 1] AS BIGINT) AS n_regionkey, ${words('k', 11, 6)} AS n_comment FROM range(0, 25) AS g(k)`,
    `CREATE OR REPLACE TABLE supplier AS SELECT s AS s_suppkey, 'Supplier#' || lpad(CAST(s AS VARCHAR), 9, '0') AS s_name, ${words('s', 21, 2)} AS s_address, nk AS s_nationkey, ` +
      `${phone('nk', 's', 31)} AS s_phone, round(${money('s', 35, -999.99, 9999.99)}, 2) AS s_acctbal, ` +
      `CASE WHEN ${r('s', 36, 100)} = 0 THEN ${words('s', 40, 2)} || ' Customer ' || ${words('s', 44, 1)} || ' Complaints' ELSE ${words('s', 40, 5)} END AS s_comment ` +
      `FROM (SELECT s, ${r('s', 20, 25)} AS nk FROM ${seq(S, 's')})`,
    `CREATE OR REPLACE TABLE customer AS SELECT c AS c_custkey, 'Customer#' || lpad(CAST(c AS VARCHAR), 9, '0') AS c_name, ${words('c', 51, 2)} AS c_address, nk AS c_nationkey, ` +
      `${phone('nk', 'c', 61)} AS c_phone, round(${money('c', 65, -999.99, 9999.99)}, 2) AS c_acctbal, ${pick(SEGMENTS, 'c', 66)} AS c_mktsegment, ${words('c', 70, 6)} AS c_comment ` +
      `FROM (SELECT c, ${r('c', 50, 25)} AS nk FROM ${seq(C, 'c')})`,
    `CREATE OR REPLACE TABLE part AS SELECT p AS p_partkey, ${Array.from({ length: 5 }, (_, i) => pick(COLORS, 'p', 81 + i)).join(` || ' ' || `)} AS p_name, ` +
      `'Manufacturer#' || CAST(m AS VARCHAR) AS p_mfgr, 'Brand#' || CAST(m AS VARCHAR) || CAST(1 + ${r('p', 87, 5)} AS VARCHAR) AS p_brand, ` +
      `${pick(TYPE1, 'p', 88)} || ' ' || ${pick(TYPE2, 'p', 89)} || ' ' || ${pick(TYPE3, 'p', 90)} AS p_type, 1 + ${r('p', 91, 50)} AS p_size, ` +
      `${pick(CONTAINER1, 'p', 92)} || ' ' || ${pick(CONTAINER2, 'p', 93)} AS p_container, ${retail('p')} AS p_retailprice, ${words('p', 94, 3)} AS p_comment ` +
      `FROM (SELECT p, 1 + ${r('p', 80, 5)} AS m FROM ${seq(P, 'p')})`,
    `CREATE OR REPLACE TABLE partsupp AS SELECT p AS ps_partkey, ${supplierOf('p', 'i')} AS ps_suppkey, 1 + ${r('p * 4 + i', 101, 9999)} AS ps_availqty, ` +
      `round(${money('p * 4 + i', 102, 1, 1000)}, 2) AS ps_supplycost, ${words('p * 4 + i', 103, 8)} AS ps_comment ` +
      `FROM ${seq(P, 'p')} CROSS JOIN (SELECT CAST(i AS BIGINT) AS i FROM range(0, 4) AS g(i)) ORDER BY ps_partkey, ps_suppkey`,
    // Orders without their totals (computed from the line items below).
    `CREATE OR REPLACE TABLE orders_base AS SELECT o, CASE WHEN c % 3 = 0 THEN c - 1 ELSE c END AS o_custkey, ` +
      `CAST(DATE '1992-01-01' + CAST(${r('o', 111, 2406)} AS INTEGER) AS DATE) AS o_orderdate, ${pick(PRIORITIES, 'o', 112)} AS o_orderpriority, ` +
      `'Clerk#' || lpad(CAST(1 + ${r('o', 113, Math.max(1, Math.round(sf * 1000)))} AS VARCHAR), 9, '0') AS o_clerk, CAST(0 AS BIGINT) AS o_shippriority, ` +
      `${words('o', 114, 5)} AS o_comment, 1 + ${r('o', 119, 7)} AS lines ` +
      `FROM (SELECT o, 1 + ${r('o', 110, C)} AS c FROM ${seq(O, 'o')})`,
    `CREATE OR REPLACE TABLE lineitem_base AS SELECT o AS l_orderkey, pk AS l_partkey, ${supplierOf('pk', `${r('o * 8 + n', 122, 4)}`)} AS l_suppkey, n AS l_linenumber, ` +
      `q AS l_quantity, round(q * ${retail('pk')}, 2) AS l_extendedprice, ${r('o * 8 + n', 123, 11)} / 100.0 AS l_discount, ${r('o * 8 + n', 124, 9)} / 100.0 AS l_tax, ` +
      `CAST(o_orderdate + CAST(1 + ${r('o * 8 + n', 125, 121)} AS INTEGER) AS DATE) AS l_shipdate, CAST(o_orderdate + CAST(30 + ${r('o * 8 + n', 126, 61)} AS INTEGER) AS DATE) AS l_commitdate, ` +
      `${r('o * 8 + n', 127, 30)} AS receipt_lag, ${r('o * 8 + n', 128, 2)} AS rflag, ${pick(INSTRUCTIONS, 'o * 8 + n', 129)} AS l_shipinstruct, ` +
      `${pick(MODES, 'o * 8 + n', 130)} AS l_shipmode, ${words('o * 8 + n', 131, 4)} AS l_comment ` +
      `FROM (SELECT o, o_orderdate, CAST(n AS BIGINT) AS n, 1 + ${r('o * 8 + n', 120, P)} AS pk, CAST(1 + ${r('o * 8 + n', 121, 50)} AS DOUBLE) AS q ` +
      `FROM orders_base, range(1, lines + 1) AS g(n))`,
    `CREATE OR REPLACE TABLE lineitem AS SELECT l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, l_discount, l_tax, ` +
      `CASE WHEN receipt <= DATE '1995-06-17' THEN CASE WHEN rflag = 0 THEN 'R' ELSE 'A' END ELSE 'N' END AS l_returnflag, ` +
      `CASE WHEN l_shipdate > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus, l_shipdate, l_commitdate, receipt AS l_receiptdate, l_shipinstruct, l_shipmode, l_comment ` +
      `FROM (SELECT *, CAST(l_shipdate + CAST(1 + receipt_lag AS INTEGER) AS DATE) AS receipt FROM lineitem_base) ORDER BY l_orderkey, l_linenumber`,
    `CREATE OR REPLACE TABLE orders AS SELECT o AS o_orderkey, o_custkey, ` +
      `CASE WHEN bool_and(l_linestatus = 'F') THEN 'F' WHEN bool_and(l_linestatus = 'O') THEN 'O' ELSE 'P' END AS o_orderstatus, ` +
      `round(sum(l_extendedprice * (1 + l_tax) * (1 - l_discount)), 2) AS o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment ` +
      `FROM orders_base JOIN lineitem ON l_orderkey = o GROUP BY ALL ORDER BY o_orderkey`,
    'DROP TABLE orders_base',
    'DROP TABLE lineitem_base',
  ];
}
