SELECT c1, c3 FROM (SELECT c1, c3 FROM (SELECT c1, c2, c3 FROM (SELECT "id" AS c1, "s" AS c2, "x" AS c3 FROM "t1") AS s2 WHERE ((((c1 > CAST(2 AS BIGINT))) AND ((NOT ((c2 IS NULL))))))) AS s1)
