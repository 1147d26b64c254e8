/**
 * Loads every category of the function table (src/functions/registry.ts). Order matters only
 * where a later category deliberately overrides an earlier entry.
 */
import './operators.js';
import './hash.js';
import './math.js';
import './string.js';
import './string2.js';
import './extra.js';
import './datetime.js';
import './datetime2.js';
import './timeseries.js';
import './format.js';
import './conversion.js';
import './cast-format.js';
import './array.js';
import './aggregate.js';
import './window.js';
import './json.js';
import './json2.js';
import './vector.js';
import './range.js';
import './net.js';
import './misc.js';
import './debugging.js';
import './aead.js';
import './geography.js';
import './geography2.js';
import './geography3.js';
import './geography-extra.js';
