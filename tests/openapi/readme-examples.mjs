// readme-examples.mjs - runs the curl examples of the README's "Using the
// API" section against a live server and checks each answer against the
// block shown after it. JSON answers must match exactly except for the
// values under "stats" and request ids (same keys, numbers still
// numbers), and likewise a job's id, times and progress, and calendar
// dates inside strings; text answers must contain the shown lines in
// order, with digit runs free to differ and Date / X-Request-Id values ignored.
//
// usage: node tests/openapi/readme-examples.mjs BASE_URL FILE... (the
// first FILE holding a "## Using the API" section is used)
// With --print, shows what each example answers instead of checking.
import fs from 'node:fs';
import { execSync } from 'node:child_process';

const args = process.argv.slice(2);
const print = args[0] === '--print' ? args.shift() : null;
const [base, ...files] = args;
const DOC_URL = 'http://127.0.0.1:8080';

function section(text) {
  const start = text.indexOf('## Using the API');
  if (start < 0) return null;
  const rest = text.slice(start + 3);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

let doc = null;
let source = null;
for (const f of files) {
  if (!fs.existsSync(f)) continue;
  doc = section(fs.readFileSync(f, 'utf8'));
  if (doc) {
    source = f;
    break;
  }
}
if (!doc) {
  console.error(`no "## Using the API" section in ${files.join(', ')}`);
  process.exit(1);
}

// An example marked `<!-- not run by the test: REASON -->` on the line
// before its block is skipped, and the reason printed (one that needs the
// 24-puzzle tables, which take minutes to build, for instance).
const blocks = [...doc.matchAll(
  /(?:<!-- not run by the test: ([^>]*?) -->\n)?```(\w*)\n([\s\S]*?)```/g)]
  .map((m) => ({ skip: m[1], lang: m[2], text: m[3] }));

// Lines of a sh block as commands (backslash continuations joined).
function commands(text) {
  return text.replace(/\\\n/g, ' ').split('\n')
    .map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
}

// Calendar dates inside strings (the daily board's "of 2026-12-02") are
// the day the example runs, not part of what it shows.
const undated = (s) => s.replace(/\b\d{4}-\d{2}-\d{2}\b/g, 'YYYY-MM-DD');

// A number as written: the README shows "gap": 1.0 where the server
// writes 1.0, not 1 (JSON.parse alone cannot tell them apart).
class Num {
  constructor(src) { this.src = src; }
}
const parse = (text) => JSON.parse(text, (k, v, ctx) =>
  (typeof v === 'number' ? new Num(ctx && ctx.source !== undefined
                                     ? ctx.source : String(v)) : v));
const show = (v) => JSON.stringify(v, (k, x) =>
  (x instanceof Num ? Number(x.src) : x));

function compareJson(want, got, where, errs) {
  // The rectangles' and the 24-puzzle's tables build for minutes in the
  // background: /readyz's example runs whatever their state (its keys
  // and types are still checked).
  if (where.includes('/stats/') || where.endsWith('/request_id')
      || /^\/checks\/pdb_(5x5|rect)\//.test(where)
      || where.includes('/progress/')
      || /\/(id|created_at|started_at|finished_at)$/.test(where)) {
    if (typeof want !== typeof got
        || (want instanceof Num) !== (got instanceof Num)) {
      errs.push(`${where}: type differs`);
    }
    return;
  }
  if (want instanceof Num) {
    if (!(got instanceof Num) || got.src !== want.src) {
      errs.push(`${where}: expected ${want.src}, got ` +
                (got instanceof Num ? got.src : show(got)));
    }
  } else if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) {
      errs.push(`${where}: expected ${show(want)}, got ${show(got)}`);
      return;
    }
    want.forEach((w, i) => compareJson(w, got[i], `${where}/${i}`, errs));
  } else if (want && typeof want === 'object') {
    if (!got || typeof got !== 'object' || Array.isArray(got)) {
      errs.push(`${where}: expected an object, got ${JSON.stringify(got)}`);
      return;
    }
    // In the server's order, as a reader sees them.
    const wk = Object.keys(want).join(',');
    const gk = Object.keys(got).join(',');
    if (wk !== gk) errs.push(`${where}: keys ${gk}, expected ${wk}`);
    for (const k of Object.keys(want)) {
      if (k in got) compareJson(want[k], got[k], `${where}/${k}`, errs);
    }
  } else if (typeof want === 'string' && typeof got === 'string'
             ? undated(want) !== undated(got) : want !== got) {
    errs.push(`${where}: expected ${show(want)}, got ${show(got)}`);
  }
}

const mask = (l) => l.replace(/[0-9]+/g, '#').trimEnd();
const volatile = /^(date|x-request-id|location):/i;
// A JSON line, or an event stream's "data: {...}" line.
const jsonOf = (l) => l.trim().replace(/^data: (?=\{)/, '');

function compareText(want, got, errs) {
  const lines = got.split(/\r?\n/);
  let at = 0;
  for (const w of want.split('\n').filter((l) => l.trim())) {
    let found = -1;
    for (let i = at; i < lines.length && found < 0; i++) {
      const g = lines[i];
      if (volatile.test(w)) {
        if (g.toLowerCase().startsWith(w.split(':')[0].toLowerCase() + ':')) {
          found = i;
        }
      } else if (jsonOf(w).startsWith('{')) {
        const e = [];
        try {
          compareJson(parse(jsonOf(w)), parse(jsonOf(g)), '', e);
          if (!e.length) found = i;
        } catch {
          // not this line
        }
      } else if (mask(w) === mask(g)) {
        found = i;
      }
    }
    if (found < 0) {
      errs.push(`missing line: ${w}`);
    } else {
      at = found + 1;
    }
  }
}

let ran = 0;
let failed = 0;
let skipped = 0;
for (let i = 0; i < blocks.length; i++) {
  if (blocks[i].lang !== 'sh') continue;
  if (blocks[i].skip) {
    skipped++;
    console.log(`skipped (${blocks[i].skip}): ` +
                `${commands(blocks[i].text)[0]}`);
    continue;
  }
  const expect = blocks[i + 1] && blocks[i + 1].lang !== 'sh'
    ? blocks[i + 1] : null;
  for (const cmd of commands(blocks[i].text)) {
    const run = cmd.split(DOC_URL).join(base);
    let out;
    try {
      out = execSync(run, { shell: '/bin/sh', timeout: 30000,
                            encoding: 'utf8' });
    } catch (e) {
      out = e.stdout || '';
      if (!print) {
        failed++;
        console.error(`FAIL (exit ${e.status}) ${cmd}`);
        continue;
      }
    }
    ran++;
    if (print) {
      console.log(`$ ${cmd}\n${out}\n`);
      continue;
    }
    const errs = [];
    if (expect && expect.lang === 'json') {
      try {
        compareJson(parse(expect.text), parse(out), '', errs);
      } catch (e) {
        errs.push(`not JSON: ${e.message}: ${out.slice(0, 200)}`);
      }
    } else if (expect) {
      compareText(expect.text, out, errs);
    }
    if (errs.length) {
      failed++;
      console.error(`FAIL ${cmd}`);
      for (const e of errs.slice(0, 6)) console.error(`    ${e}`);
    }
  }
}
console.log(`${source}: ${ran} examples run, ${failed} failed, ` +
            `${skipped} skipped`);
process.exit(failed || ran === 0 ? 1 : 0);
