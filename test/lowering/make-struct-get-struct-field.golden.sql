SELECT c5, c6 FROM (SELECT struct_extract(struct_pack("a" := c1, "b" := c2), 'b') AS c5, struct_pack("id" := c1, "k" := c4) AS c6 FROM (SELECT "id" AS c1, "s" AS c2, "k" AS c4 FROM "t1") AS s1)
