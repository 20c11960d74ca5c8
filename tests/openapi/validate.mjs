// validate.mjs - checks every HTTP response recorded by the integration
// tests (tests/support/htest.c writes one JSON file per response) against
// openapi.yaml: the status must be documented for that route and method,
// required headers present and matching their schemas, the content type
// documented, and JSON bodies valid under the response schema (Ajv,
// JSON Schema 2020-12, the dialect of OpenAPI 3.1).
//
// usage: node tests/openapi/validate.mjs openapi.yaml RESPONSES_DIR
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const [specPath, dir] = process.argv.slice(2);
if (!specPath || !dir) {
  console.error('usage: validate.mjs openapi.yaml RESPONSES_DIR');
  process.exit(2);
}
const spec = YAML.parse(fs.readFileSync(specPath, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The whole document is one schema resource, so the "#/components/..."
// references inside component schemas resolve against it.
ajv.addSchema(spec, 'spec');

const escape = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const compiled = new Map();
function validator(pointer) {
  if (!compiled.has(pointer)) {
    compiled.set(pointer, ajv.compile({ $ref: `spec#${pointer}` }));
  }
  return compiled.get(pointer);
}

// Follow a local $ref ("#/components/responses/NotFound") to its target
// and return [object, json pointer of the object].
function deref(obj, pointer) {
  while (obj && obj.$ref) {
    pointer = obj.$ref.slice(1);
    obj = pointer.split('/').slice(1).reduce(
      (o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return [obj, pointer];
}

const baseType = (ct) => (ct || '').split(';')[0].trim().toLowerCase();
const isJson = (t) => t === 'application/json' || t.endsWith('+json');

function mediaFor(content, ct) {
  const t = baseType(ct);
  for (const key of Object.keys(content)) {
    if (baseType(key) === t) return key;
  }
  if (content[`${t.split('/')[0]}/*`]) return `${t.split('/')[0]}/*`;
  return content['*/*'] ? '*/*' : null;
}

// Where in the spec this response is described, or an error string.
function locate(rec) {
  const item = spec.paths[rec.route];
  const method = rec.method === 'HEAD' ? 'get' : rec.method.toLowerCase();
  const status = String(rec.status);
  if (item && method === 'options' && rec.status === 204) {
    // Every path answers OPTIONS the same way, as OPTIONS / shows.
    return deref(spec.components.responses.Preflight,
                 '/components/responses/Preflight');
  }
  if (!item || !item[method]) {
    // Undocumented path or method: only a problem+json 404/405 is fine,
    // and it must look like the documented ones.
    if (rec.status === 404 || rec.status === 405) {
      const name = rec.status === 404 ? 'NotFound' : 'MethodNotAllowed';
      return deref(spec.components.responses[name],
                   `/components/responses/${name}`);
    }
    return `${rec.method} ${rec.route} is not in the spec`;
  }
  const base = `/paths/${escape(rec.route)}/${method}/responses`;
  const responses = item[method].responses;
  const key = responses[status] ? status : 'default';
  if (!responses[key]) {
    return `${rec.method} ${rec.route}: status ${status} is not documented`;
  }
  return deref(responses[key], `${base}/${escape(key)}`);
}

function checkHeaders(rec, resp, ptr, errors) {
  for (const [name, h0] of Object.entries(resp.headers || {})) {
    const [h, hptr] = deref(h0, `${ptr}/headers/${escape(name)}`);
    const value = rec.headers[name.toLowerCase()];
    if (value === undefined) {
      if (h.required) errors.push(`missing required header ${name}`);
      continue;
    }
    const v = validator(`${hptr}/schema`);
    if (!v(value)) errors.push(`header ${name}: ${ajv.errorsText(v.errors)}`);
  }
}

function checkBody(rec, resp, ptr, errors) {
  if (!resp.content) {
    if (rec.body !== '') errors.push('a body where none is documented');
    return;
  }
  const media = mediaFor(resp.content, rec.content_type);
  if (!media) {
    errors.push(`content type "${rec.content_type}" not documented (` +
                `${Object.keys(resp.content).join(', ')})`);
    return;
  }
  if (rec.method === 'HEAD' || !isJson(baseType(rec.content_type))) return;
  let body;
  try {
    body = JSON.parse(rec.body);
  } catch (e) {
    errors.push(`body is not JSON: ${e.message}`);
    return;
  }
  const v = validator(`${ptr}/content/${escape(media)}/schema`);
  if (!v(body)) {
    errors.push(...v.errors.map((e) =>
      `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
  }
}

const files = fs.existsSync(dir)
  ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort() : [];
if (files.length === 0) {
  console.error(`no recorded responses in ${dir}: run the integration ` +
                'tests (make test) first');
  process.exit(1);
}
let failed = 0;
const seen = new Map();
for (const f of files) {
  const rec = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const where = locate(rec);
  const errors = [];
  if (typeof where === 'string') {
    errors.push(where);
  } else {
    checkHeaders(rec, where[0], where[1], errors);
    checkBody(rec, where[0], where[1], errors);
  }
  // A 405 is what every other method of a path gets: it covers the 405
  // documented on each of the path's operations.
  const methods = rec.status === 405 && spec.paths[rec.route]
    ? Object.keys(spec.paths[rec.route]).map((m) => m.toUpperCase())
    : [rec.method === 'HEAD' ? 'GET' : rec.method];
  for (const m of methods) {
    const key = `${m} ${rec.route} ${rec.status}`;
    seen.set(key, (seen.get(key) || 0) + 1);
  }
  if (errors.length) {
    failed++;
    console.error(`FAIL ${f}: ${rec.method} ${rec.path} -> ${rec.status}`);
    for (const e of errors.slice(0, 8)) console.error(`    ${e}`);
  }
}
const untested = [];
for (const [route, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    for (const status of Object.keys(op.responses || {})) {
      if (!seen.has(`${method.toUpperCase()} ${route} ${status}`)) {
        untested.push(`${method.toUpperCase()} ${route} ${status}`);
      }
    }
  }
}
console.log(`${files.length} responses checked against ${specPath}: ` +
            `${files.length - failed} valid, ${failed} invalid; ` +
            `${seen.size} distinct route/method/status combinations`);
// Informational: mostly answers no test provokes on purpose (500, 503
// under overload); OPENAPI_UNTESTED=1 lists them.
if (untested.length && process.env.OPENAPI_UNTESTED) {
  console.log(`documented but not exercised (${untested.length}): ` +
              untested.join('; '));
} else if (untested.length) {
  console.log(`(${untested.length} documented responses not exercised, ` +
              'mostly 500s and 503s the tests do not provoke; not an ' +
              'error: OPENAPI_UNTESTED=1 lists them)');
}
process.exit(failed ? 1 : 0);
