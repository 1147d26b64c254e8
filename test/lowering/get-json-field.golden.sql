SELECT c1, c2 FROM (SELECT json_extract('{"a":{"b":1},"c":[1,2]}'::JSON, '$."a"') AS c1, json_extract('{"a":1}'::JSON, '$."missing"') AS c2 FROM (SELECT NULL AS "__none") AS s1)
