// k8s_check.mjs - checks deploy/k8s/ against itself and against the
// server (run by tests/scripts/k8s_manifests.sh from the repository root):
//   - every YAML document of every file parses without error or warning;
//   - the base (kustomization.yaml's resources) has the Deployment,
//     Service, HPA, PodDisruptionBudget and ConfigMap, and their names,
//     selectors and ports refer to each other correctly;
//   - the numbers that must agree do: CPU limit = workers, memory limit
//     covers workers x solve_max_bytes, grace period covers the drain,
//     container port = configured port = puzzled's default port;
//   - the settings are taken as puzzled takes them: defaults, then the
//     ConfigMap's file, then the image's ENV (Dockerfile), then the
//     container's env; a file value the image's ENV overrides must agree
//     with it, and the image EXPOSEs the container port;
//   - the pdb-7-8 and pdb-5x5 overlays, merged the way kustomize merges
//     them, pass the same checks; their memory covers the figures
//     docs/operations.md gives for those tables (held by the server,
//     peak of the init container's build); their init container's
//     command really builds and saves tables where the server looks (run
//     here with a small partition of the same board size, seconds), and
//     a server started on that directory loads them and is ready;
//   - puzzled, started with the ConfigMap's puzzled.conf and the image's
//     and container's environment (on 127.0.0.1, any port), accepts every
//     key and answers 200 on every probe path and the Prometheus path;
//   - the shared store (redis.yaml): a Redis StatefulSet with AOF on a
//     volume claim, probes and resource limits (maxmemory below the
//     memory limit, noeviction), a Service that is the host and port of
//     the ConfigMap's redis_url; the readiness probe ignores the store
//     (a Redis down must not take every pod out of the Service), and
//     the probe server is started against a redis-server of its own
//     when redis_url is set (skipped, with a note, without one);
//   - docs/operations.md names every setting (key, flag, environment
//     variable) of `puzzled serve --help` and every metric it serves.
// Environment: PUZZLED (binary, default build/puzzled); VERBOSE=1 lists
// every check, not only the failures.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const K8S = 'deploy/k8s';
const PUZZLED = path.resolve(process.env.PUZZLED || 'build/puzzled');
const failures = [];
const served = { metrics: new Set() };
const children = new Set();

let passed = 0;
// Failures are always printed, passes only with VERBOSE=1.
function check(ok, what) {
    if (ok) {
        passed++;
        if (process.env.VERBOSE)
            console.log(`pass: ${what}`);
    } else {
        console.log(`FAIL: ${what}`);
        failures.push(what);
    }
    return ok;
}

function yamlFiles(dir) {
    const out = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory())
            out.push(...yamlFiles(p));
        else if (/\.ya?ml$/.test(e.name))
            out.push(p);
    }
    return out.sort();
}

// Every document of a file, as plain objects; parse errors are failures.
function loadFile(file) {
    const text = fs.readFileSync(file, 'utf8');
    const docs = YAML.parseAllDocuments(text, { prettyErrors: true });
    const objs = [];
    docs.forEach((d, i) => {
        const problems = [...d.errors, ...d.warnings];
        check(problems.length === 0, `${file} document ${i + 1} parses` +
              (problems.length ? `: ${problems[0].message}` : ''));
        const o = d.toJS();
        if (o === null || o === undefined)
            return;
        check(typeof o.apiVersion === 'string' && typeof o.kind === 'string',
              `${file} document ${i + 1} has apiVersion and kind`);
        objs.push(o);
    });
    return objs;
}

// kustomize's strategic merge for the fields used here: maps merge key
// by key, lists of named objects merge by name, anything else replaces.
function merge(base, patch) {
    if (Array.isArray(base) && Array.isArray(patch)
        && [...base, ...patch].every(x => x && typeof x === 'object'
                                     && 'name' in x)) {
        const out = base.map(x => ({ ...x }));
        for (const p of patch) {
            const i = out.findIndex(x => x.name === p.name);
            if (i < 0)
                out.push(p);
            else
                out[i] = merge(out[i], p);
        }
        return out;
    }
    if (base && patch && typeof base === 'object' && typeof patch === 'object'
        && !Array.isArray(base) && !Array.isArray(patch)) {
        const out = { ...base };
        for (const [k, v] of Object.entries(patch))
            out[k] = k in base ? merge(base[k], v) : v;
        return out;
    }
    return patch;
}

// puzzled.conf text -> { key: value }; puzzled accepts dashes too.
function parseConf(text) {
    const conf = {};
    for (const raw of text.split('\n')) {
        const line = raw.replace(/#.*/, '').trim();
        const eq = line.indexOf('=');
        if (eq > 0)
            conf[line.slice(0, eq).trim().replace(/-/g, '_')] =
                line.slice(eq + 1).trim();
    }
    return conf;
}

// "2", "1500m" -> cores; "768Mi", "1G" -> bytes; puzzled's "256m" -> bytes.
function cpuCores(q) {
    const s = String(q);
    return s.endsWith('m') ? Number(s.slice(0, -1)) / 1000 : Number(s);
}
function k8sBytes(q) {
    const m = /^(\d+(?:\.\d+)?)([KMGT]i?|[kMGT])?$/.exec(String(q));
    if (!m)
        return NaN;
    const mult = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40,
                   k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
    return Number(m[1]) * (m[2] ? mult[m[2]] : 1);
}
function puzzledBytes(v) {
    const m = /^(\d+)([kmgKMG])?$/.exec(String(v));
    if (!m)
        return NaN;
    const shift = { k: 10, m: 20, g: 30 }[(m[2] || '').toLowerCase()] || 0;
    return Number(m[1]) * 2 ** shift;
}

// The runtime stage of the Dockerfile: its ENV (as { PUZZLED_X: v }) and
// EXPOSEd ports. Continuation lines are joined first.
function dockerImage(file) {
    if (!fs.existsSync(file))
        return null;
    const lines = fs.readFileSync(file, 'utf8').replace(/\\\n/g, ' ')
        .split('\n').map(l => l.trim());
    const last = lines.map(l => /^FROM\s/i.test(l)).lastIndexOf(true);
    const env = {}, expose = [];
    for (const l of lines.slice(last + 1)) {
        const m = /^(ENV|EXPOSE)\s+(.*)$/i.exec(l);
        if (!m)
            continue;
        if (m[1].toUpperCase() === 'EXPOSE') {
            expose.push(...m[2].split(/\s+/).map(p => parseInt(p, 10)));
            continue;
        }
        for (const kv of m[2].matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g))
            env[kv[1]] = kv[2].replace(/^"(.*)"$/, '$1');
    }
    return { env, expose };
}

function byKind(objs, kind) {
    return objs.filter(o => o.kind === kind);
}

function labelsMatch(selector, labels) {
    return Object.entries(selector || {}).every(([k, v]) => labels[k] === v);
}

// The facts of a Deployment that the dynamic checks use.
/* MAJOR.MINOR.PATCH from include/puz_version.h. */
function releaseVersion() {
    const h = fs.readFileSync('include/puz_version.h', 'utf8');
    const part = (n) => (new RegExp(`#define PUZ_VERSION_${n} (\\d+)`).exec(h) || [])[1];
    return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
}

function checkDeployment(label, dep, cms, serverDefaults, image) {
    const spec = dep.spec || {};
    const tpl = spec.template || {};
    const podLabels = (tpl.metadata || {}).labels || {};
    const pod = tpl.spec || {};
    const c = (pod.containers || []).find(x => x.name === 'puzzled');
    check(c !== undefined, `${label}: a container named puzzled`);
    if (!c)
        return null;
    const env = Object.fromEntries((c.env || []).map(e => [e.name, e.value]));
    /* The image's tag is the release, whose one home is puz_version.h. */
    check(c.image === `puzzled:${releaseVersion()}`,
          `${label}: image ${c.image} is puzzled:${releaseVersion()} (include/puz_version.h)`);
    check(spec.replicas >= 2, `${label}: replicas ${spec.replicas} >= 2`);
    check(labelsMatch((spec.selector || {}).matchLabels, podLabels) &&
          Object.keys((spec.selector || {}).matchLabels || {}).length > 0,
          `${label}: selector matches the pod labels`);

    // The config file: a ConfigMap volume mounted where PUZZLED_CONFIG says.
    const cfgPath = env.PUZZLED_CONFIG;
    const mount = (c.volumeMounts || []).find(m => cfgPath &&
        path.dirname(cfgPath) === m.mountPath.replace(/\/$/, ''));
    const vol = mount && (pod.volumes || []).find(v => v.name === mount.name);
    const cm = vol && vol.configMap &&
        cms.find(x => x.metadata.name === vol.configMap.name);
    const file = cfgPath && path.basename(cfgPath);
    check(cm && cm.data && typeof cm.data[file] === 'string',
          `${label}: PUZZLED_CONFIG ${cfgPath} is a ConfigMap file`);
    if (!cm || !cm.data || typeof cm.data[file] !== 'string')
        return null;
    const confText = cm.data[file];
    // Effective settings, as puzzled takes them: the file, then the
    // image's ENV, then the container's env (PUZZLED_CONFIG aside).
    const fileConf = parseConf(confText);
    const conf = { ...fileConf };
    for (const [k, v] of Object.entries(image.env))
        if (k.startsWith('PUZZLED_') && k !== 'PUZZLED_CONFIG') {
            const key = k.slice(8).toLowerCase();
            if (key in fileConf)
                check(fileConf[key] === v, `${label}: ConfigMap ${key} = ` +
                      `${fileConf[key]} agrees with the image's ${k}=${v} ` +
                      '(which wins)');
            conf[key] = v;
        }
    for (const [k, v] of Object.entries(env))
        if (k.startsWith('PUZZLED_') && k !== 'PUZZLED_CONFIG')
            conf[k.slice(8).toLowerCase()] = v;
    const setting = k => (k in conf ? conf[k] : serverDefaults[k]);

    const port = (c.ports || []).find(p => p.name === 'http');
    check(port !== undefined, `${label}: a container port named http`);
    const cport = port ? port.containerPort : undefined;
    check(Number(setting('port')) === cport,
          `${label}: containerPort ${cport} = configured port ` +
          `${setting('port')}`);
    check(image.expose.includes(cport),
          `${label}: the image EXPOSEs containerPort ${cport}`);
    check(['0.0.0.0', '::'].includes(setting('bind')),
          `${label}: bind ${setting('bind')} is reachable from outside`);
    // The probes' own listener (probe_port, issue 44): a container port
    // named probe that is the configured probe_port.
    const pport = ((c.ports || []).find(p => p.name === 'probe') || {})
        .containerPort;
    if (pport !== undefined || Number(setting('probe_port') || 0) !== 0)
        check(Number(setting('probe_port')) === pport,
              `${label}: containerPort probe ${pport} = configured ` +
              `probe_port ${setting('probe_port')}`);
    const ann = (tpl.metadata || {}).annotations || {};
    if ('prometheus.io/port' in ann)
        check([cport, pport].includes(Number(ann['prometheus.io/port'])),
              `${label}: prometheus.io/port = containerPort http or probe`);

    // Probes: the right paths, on the http port or the probe port.
    const probes = [];
    for (const kind of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const p = c[kind];
        check(p && p.httpGet, `${label}: ${kind} is an httpGet probe`);
        if (!p || !p.httpGet)
            continue;
        const pp = p.httpGet.port;
        const onProbe = pport !== undefined && (pp === 'probe' || pp === pport);
        check(pp === 'http' || pp === cport || onProbe,
              `${label}: ${kind} port ${pp} is the http or the probe port`);
        probes.push({ kind, path: p.httpGet.path, onProbe });
    }
    const live = c.livenessProbe && c.livenessProbe.httpGet;
    const ready = c.readinessProbe && c.readinessProbe.httpGet;
    check(live && live.path === '/livez', `${label}: liveness on /livez`);
    check(ready && ['/readyz', '/readyz?ignore=store'].includes(ready.path),
          `${label}: readiness on /readyz`);

    // CPU: one solver thread per core of the limit.
    const res = c.resources || {};
    const req = res.requests || {}, lim = res.limits || {};
    const workers = Number(setting('workers'));
    check(workers > 0, `${label}: workers ${workers} set explicitly ` +
          '(0 would count the node\'s cores)');
    check(cpuCores(lim.cpu) === workers && cpuCores(req.cpu) === workers,
          `${label}: cpu request ${req.cpu} = limit ${lim.cpu} = workers ` +
          `${workers}`);
    // Memory: every worker and job worker may hold solve_max_bytes at
    // once, and finished jobs their answers (docs/operations.md, Sizing).
    const jobWorkers = Number(setting('job_workers'));
    const need = (workers + jobWorkers)
        * puzzledBytes(setting('solve_max_bytes'))
        + puzzledBytes(setting('job_results_max_bytes')) + 64 * 2 ** 20;
    check(jobWorkers > 0, `${label}: job_workers ${jobWorkers} set ` +
          'explicitly (the memory limit counts them)');
    check(k8sBytes(lim.memory) >= need && k8sBytes(req.memory) > 0,
          `${label}: memory limit ${lim.memory} >= (workers + ` +
          `job_workers) x solve_max_bytes (${setting('solve_max_bytes')}) ` +
          `+ job_results_max_bytes + 64Mi`);

    // Drain: preStop pause + shutdown grace + 2 s for answers in flight.
    const pre = ((c.lifecycle || {}).preStop || {});
    const cmd = (pre.exec || {}).command || [];
    const pause = pre.sleep ? Number(pre.sleep.seconds)
        : cmd[0] === 'sleep' ? Number(cmd[1]) : 0;
    const grace = Number(setting('shutdown_grace_ms')) / 1000;
    const tgps = pod.terminationGracePeriodSeconds;
    check(tgps >= pause + grace + 2,
          `${label}: terminationGracePeriodSeconds ${tgps} >= preStop ` +
          `${pause} s + shutdown_grace_ms ${grace} s + 2 s`);

    // pdb_dir, when set, is a volume (the root filesystem is read-only).
    const pdbDir = setting('pdb_dir');
    if (pdbDir)
        check((c.volumeMounts || []).some(m => m.mountPath === pdbDir),
              `${label}: pdb_dir ${pdbDir} is a mounted volume`);
    // state_dir too: the store writes there.
    const stateDir = setting('state_dir');
    if (stateDir && stateDir !== 'off')
        check((c.volumeMounts || []).some(m => m.mountPath === stateDir),
              `${label}: state_dir ${stateDir} is a mounted volume`);
    check(['none', '6-6-3', '663', '7-8', '78'].includes(setting('pdb')),
          `${label}: pdb ${setting('pdb')} is none, 6-6-3 or 7-8`);
    check(['none', 'auto', '6-6-6-6', '6666', '6-6-6-6z', '6666z',
           '6-6-6-6z2', '6666z2', '4x6', '444444', '4x6z', '444444z',
           '4x6z2', '444444z2'].includes(setting('pdb_5x5')),
          `${label}: pdb_5x5 ${setting('pdb_5x5')} is none, auto, ` +
          `6-6-6-6, 6-6-6-6z, 6-6-6-6z2, 4x6, 4x6z or 4x6z2`);
    return { label, dep, c, env, image, confText, conf, cport, pport, probes,
             podLabels, pdbDir };
}

// The shared store: redis.yaml's StatefulSet and Service, and the
// ConfigMap's redis_url naming them.
function checkRedis(base, facts) {
    const url = facts.conf.redis_url || '';
    if (!url)
        return;
    const m = /^redis:\/\/(?:[^@/]*@)?([^:/]+)(?::(\d+))?(?:\/(\d+))?$/.exec(url);
    if (!check(m !== null, `redis_url ${url} is redis://host:port/db`))
        return;
    const host = m[1], port = Number(m[2] || 6379);
    const ready = facts.dep.spec.template.spec.containers
        .find(c => c.name === 'puzzled').readinessProbe;
    check(ready && ready.httpGet && ready.httpGet.path === '/readyz?ignore=store',
          'with redis_url, the readiness probe is /readyz?ignore=store');
    const svc = byKind(base, 'Service').find(x => x.metadata.name === host);
    if (!check(svc !== undefined, `a Service ${host} (redis_url's host)`))
        return;
    const sts = byKind(base, 'StatefulSet').find(x =>
        labelsMatch(svc.spec.selector, ((x.spec.template || {}).metadata ||
                                        {}).labels || {}));
    if (!check(sts !== undefined, `Service ${host} selects a StatefulSet`))
        return;
    check(sts.spec.replicas === 1, `${host}: one replica (one primary)`);
    const c = (sts.spec.template.spec.containers || [])[0] || {};
    const args = (c.args || []).join(' ');
    const cport = ((c.ports || []).find(p => p.name === 'redis') || {})
        .containerPort;
    const sp = (svc.spec.ports || []).find(p => p.port === port);
    check(sp && (sp.targetPort === 'redis' || sp.targetPort === cport) &&
          cport === 6379, `${host}: Service port ${port} reaches Redis's ` +
          `containerPort ${cport}`);
    check(/--appendonly yes/.test(args), `${host}: AOF persistence on`);
    check(/--appendfsync (everysec|always)/.test(args),
          `${host}: appendfsync everysec or always (docs say what is lost)`);
    const dir = (/--dir (\S+)/.exec(args) || [])[1];
    const claims = (sts.spec.volumeClaimTemplates || []).map(v => v.metadata.name);
    check(dir && (c.volumeMounts || []).some(v => v.mountPath === dir &&
          claims.includes(v.name)),
          `${host}: its --dir ${dir} is a volume claim`);
    check(c.livenessProbe && c.readinessProbe, `${host}: liveness and ` +
          'readiness probes');
    const lim = (c.resources || {}).limits || {};
    check(lim.cpu && lim.memory, `${host}: CPU and memory limits`);
    const maxmem = (/--maxmemory (\d+)mb/.exec(args) || [])[1];
    check(maxmem && memBytes(lim.memory) > Number(maxmem) * 1048576,
          `${host}: maxmemory ${maxmem}mb below the memory limit ` +
          `${lim.memory} (room for the AOF rewrite and buffers)`);
    check(/--maxmemory-policy noeviction/.test(args),
          `${host}: noeviction (entries are never dropped silently)`);
}

function memBytes(v) {
    const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(String(v));
    if (!m)
        return 0;
    return Number(m[1]) * ({ Ki: 1024, Mi: 1048576, Gi: 1073741824 }[m[2]]
                           || 1);
}

// A redis-server of the check's own (unix socket), for the probe server
// when the ConfigMap names a redis_url; null without redis-server.
async function startRedis(dir) {
    const sock = path.join(dir, 'redis.sock');
    if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0)
        return null;
    const child = spawn('redis-server', ['--port', '0', '--unixsocket', sock,
                                         '--save', '', '--dir', dir],
                        { stdio: 'ignore' });
    children.add(child);
    for (let i = 0; i < 100 && !fs.existsSync(sock); i++)
        await new Promise(r => setTimeout(r, 50));
    return { child, url: `unix://${sock}` };
}

function checkService(svc, facts) {
    const sel = (svc.spec || {}).selector || {};
    check(Object.keys(sel).length > 0 && labelsMatch(sel, facts.podLabels),
          `Service ${svc.metadata.name}: selector matches the pods`);
    for (const p of (svc.spec || {}).ports || [])
        check(p.targetPort === 'http' || p.targetPort === facts.cport,
              `Service ${svc.metadata.name}: targetPort ${p.targetPort} is ` +
              'the http port');
}

function checkHpa(hpa, dep, pdb) {
    const s = hpa.spec || {};
    const t = s.scaleTargetRef || {};
    check(hpa.apiVersion === 'autoscaling/v2', 'HPA is autoscaling/v2');
    check(t.kind === 'Deployment' && t.name === dep.metadata.name,
          `HPA targets Deployment ${dep.metadata.name}`);
    check((s.metrics || []).some(m => m.type === 'Resource'
          && m.resource && m.resource.name === 'cpu'
          && m.resource.target && m.resource.target.type === 'Utilization'),
          'HPA scales on CPU utilisation');
    check(s.minReplicas >= 2 && s.maxReplicas > s.minReplicas,
          `HPA replicas ${s.minReplicas}..${s.maxReplicas}`);
    if (pdb) {
        const ps = pdb.spec || {};
        const ok = ps.maxUnavailable !== undefined
            ? Number(ps.maxUnavailable) >= 1 && Number(ps.maxUnavailable)
              < s.minReplicas
            : Number(ps.minAvailable) < s.minReplicas;
        check(ok, 'PodDisruptionBudget leaves room to drain a node ' +
              'and keeps a pod up');
    }
}

function kill(child) {
    if (child.exitCode === null && child.signalCode === null)
        child.kill('SIGTERM');
}

function exited(child) {
    return new Promise(resolve => {
        if (child.exitCode !== null || child.signalCode !== null)
            resolve(child.exitCode);
        else
            child.on('exit', code => resolve(code));
    });
}

// Start puzzled; resolves with its URL once it prints "listening on".
function startPuzzled(args, env) {
    const child = spawn(PUZZLED, ['serve', ...args], {
        env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '', err = '';
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(
            `no 'listening on' line within 20 s: ${err}`)), 20000);
        child.stdout.on('data', d => {
            out += d;
            const m = /listening on (http:\/\/\S+)/.exec(out);
            if (m) {
                clearTimeout(timer);
                resolve({ child, url: m[1] });
            }
        });
        child.stderr.on('data', d => { err += d; });
        child.on('exit', code => {
            clearTimeout(timer);
            reject(new Error(`puzzled exited ${code}: ${err.trim()}`));
        });
    });
}

// A free TCP port of loopback (listened on, then let go).
function freePort() {
    return new Promise(resolve => {
        const srv = net.createServer();
        srv.listen(0, '127.0.0.1', () => {
            const { port } = srv.address();
            srv.close(() => resolve(port));
        });
    });
}

function get(url) {
    return new Promise(resolve => {
        const req = http.get(url, { timeout: 5000 }, res => {
            let body = '';
            res.on('data', d => { body += d; });
            res.on('end', () => resolve({ status: res.statusCode, body }));
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', e => resolve({ status: 0, body: String(e) }));
    });
}

// puzzled's built-in defaults, from `puzzled serve --help`.
function serverDefaults() {
    const r = spawnSync(PUZZLED, ['serve', '--help'], { encoding: 'utf8' });
    const d = {};
    for (const m of (r.stdout || '').matchAll(
        /^\s+--([a-z0-9-]+)\s+PUZZLED_\S+\s+default (.*)$/gm))
        d[m[1].replace(/-/g, '_')] = m[2].replace(/^"(.*)"$/, '$1');
    return d;
}

async function probeServer(facts) {
    // Loopback only and any free port; no tables (pdb and pdb_5x5 none)
    // because they do not change which paths answer (their values were
    // checked above, and runInit starts a server with tables).
    const env = { ...process.env };
    for (const k of Object.keys(env))
        if (k.startsWith('PUZZLED_'))
            delete env[k];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-k8s-'));
    try {
        const conf = path.join(dir, 'puzzled.conf');
        fs.writeFileSync(conf, facts.confText);
        for (const [k, v] of Object.entries({ ...facts.image.env,
                                              ...facts.env }))
            env[k] = v;
        env.PUZZLED_CONFIG = conf;
        let srv, redis = null;
        const more = [];
        // The probe listener on a free port of loopback, not the pod's.
        const probePort = facts.pport !== undefined ? await freePort() : 0;
        if (probePort)
            more.push('--probe-port', String(probePort));
        if (facts.conf.redis_url) {
            redis = await startRedis(dir);
            if (redis)
                more.push('--redis-url', redis.url);
            else
                console.log('k8s_check: note: no redis-server; /readyz ' +
                            'is probed without the shared store');
        }
        try {
            srv = await startPuzzled(['--bind', '127.0.0.1', '--port', '0',
                                      '--pdb', 'none', '--pdb-5x5', 'none',
                                      '--access-log', 'off',
                                      '--state-dir', path.join(dir, 'state'),
                                      ...more],
                                     env);
        } catch (e) {
            check(false, `${facts.label}: puzzled starts with the ` +
                  `ConfigMap's puzzled.conf and the container env: ` +
                  e.message);
            return;
        }
        check(true, `${facts.label}: puzzled accepts the ConfigMap's ` +
              'puzzled.conf and the container env');
        const probeUrl = `http://127.0.0.1:${probePort}`;
        const paths = facts.probes.map(p => [p.kind, p.path,
                                             p.onProbe ? probeUrl : srv.url]);
        const ann = (facts.dep.spec.template.metadata || {}).annotations || {};
        if (ann['prometheus.io/path'])
            paths.push(['prometheus.io/path', ann['prometheus.io/path'],
                        Number(ann['prometheus.io/port']) === facts.pport
                            ? probeUrl : srv.url]);
        for (const [kind, p, base] of paths) {
            const r = await get(base + p);
            check(r.status === 200, `${facts.label}: ${kind} GET ${p} -> ` +
                  `${r.status}`);
        }
        const m = await get(srv.url + '/metrics');
        for (const t of m.body.matchAll(/^# TYPE (\S+) /gm))
            served.metrics.add(t[1]);
        if (redis) {
            const r = await get(srv.url + '/readyz');
            check(r.status === 200, `${facts.label}: /readyz -> ` +
                  `${r.status} with the shared store reachable`);
        }
        kill(srv.child);
        check(await exited(srv.child) === 0,
              `${facts.label}: puzzled exits 0 on SIGTERM`);
        if (redis)
            kill(redis.child);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// The pdb overlays: the setting each turns on and the values it takes,
// the flag to start a server with it, a small partition of the same
// board size to run the init command with (seconds), and the row of
// docs/operations.md's tables that gives the tables' costs (for auto:
// the set its pdb_budget takes, as `pdb choose` says).
const OVERLAYS = [
    { name: 'pdb-7-8', key: 'pdb', values: ['7-8', '78'], flag: '--pdb',
      small: '6-6-3', doc: '`7-8`' },
    { name: 'pdb-5x5', key: 'pdb_5x5', values: ['auto'],
      flag: '--pdb-5x5', small: '4x6', doc: null },
];

// "1200m", "2g", "1024" -> bytes (puzzled's size settings).
function confBytes(v) {
    const m = /^(\d+)([kmg]?)$/.exec(String(v || ''));
    return m ? Number(m[1]) * { '': 1, k: 1024, m: 1048576,
                                g: 1073741824 }[m[2]] : NaN;
}

// The set `puzzled pdb build --partition auto --budget B` takes, as
// `puzzled pdb choose --budget B` says it ("SET: the strongest ..."),
// building nothing; null when no set fits.
function autoSet(budget) {
    const r = spawnSync(PUZZLED, ['pdb', 'choose', '--budget', budget],
                        { encoding: 'utf8' });
    const m = r.status === 0 ? /^(\S+): the strongest/.exec(r.stdout) : null;
    return m ? m[1] : null;
}

// "128 MB", "1.3 GB", "721 MB" -> bytes.
function docBytes(num, unit) {
    return Number(num.replace(/,/g, '')) * (unit === 'GB' ? 1e9 : 1e6);
}

// docs/operations.md's row for these tables: { held, buildPeak } bytes
// (the second column's size; "N MB peak" or "N GB to build").
function docCosts(ov) {
    const doc = fs.readFileSync('docs/operations.md', 'utf8');
    const row = ov.doc && doc.split('\n').find(l =>
        l.startsWith(`| ${ov.doc} |`));
    if (!check(Boolean(row), `${ov.name}: docs/operations.md has a ` +
               `${ov.doc} row`))
        return null;
    const cells = row.split('|').map(c => c.trim());
    const held = /([\d.,]+)\s*(MB|GB)/.exec(cells[2]);
    const peak = /([\d.,]+)\s*(MB|GB)\s+(?:peak|to build)/.exec(cells[3]);
    check(held && peak, `${ov.name}: the ${ov.doc} row gives the tables' ` +
          'size and the build\'s peak memory');
    if (!held || !peak)
        return null;
    return { held: docBytes(held[1], held[2]),
             buildPeak: docBytes(peak[1], peak[2]) };
}

// The overlay's memory against the docs: the server's limit covers the
// base's plus the tables it holds, the init container's covers the
// build's peak; requests equal limits; the init's CPU is its threads.
function checkOverlayMemory(ov, baseFacts, ofacts, init) {
    const costs = docCosts(ov);
    if (!costs)
        return;
    const bres = baseFacts.c.resources || {};
    const ores = ofacts.c.resources || {};
    const blim = k8sBytes((bres.limits || {}).memory);
    const olim = k8sBytes((ores.limits || {}).memory);
    check(olim >= blim + costs.held &&
          k8sBytes((ores.requests || {}).memory) === olim,
          `${ov.name}: server memory request = limit ` +
          `${(ores.limits || {}).memory} >= the base's ` +
          `${(bres.limits || {}).memory} + ${costs.held / 1e6} MB of ` +
          'tables (docs/operations.md)');
    const ires = init.resources || {};
    const ilim = k8sBytes((ires.limits || {}).memory);
    // auto: the budget counts the build's peak; the limit covers it too
    if (ofacts.conf.pdb_budget !== undefined)
        check(ilim >= confBytes(ofacts.conf.pdb_budget),
              `${ov.name}: init memory limit ${(ires.limits || {}).memory}` +
              ` >= pdb_budget ${ofacts.conf.pdb_budget}`);
    check(ilim >= costs.buildPeak &&
          k8sBytes((ires.requests || {}).memory) === ilim,
          `${ov.name}: init memory request = limit ` +
          `${(ires.limits || {}).memory} >= the build's peak ` +
          `${costs.buildPeak / 1e6} MB (docs/operations.md)`);
    const cmd = init.command || [];
    const ti = cmd.indexOf('--threads');
    const threads = ti > 0 ? Number(cmd[ti + 1]) : 2;
    check(cpuCores((ires.limits || {}).cpu) === threads &&
          cpuCores((ires.requests || {}).cpu) === threads,
          `${ov.name}: init cpu request = limit = its ${threads} build ` +
          'threads');
}

// The overlay's init container: `puzzled pdb build --partition P` into
// the server's pdb_dir. Run here for real with a small partition of the
// same size; a server started on that directory must load the file
// (listening within 3 s, not building) and answer /readyz 200.
async function runInit(ov, init, mainFacts) {
    const cmd = init.command || [];
    const ienv = { ...mainFacts.image.env,
                   ...Object.fromEntries((init.env || []).map(e => [e.name,
                                                                    e.value]))};
    const pi = cmd.indexOf('--partition');
    check(cmd[0] === 'puzzled' && cmd[1] === 'pdb' && cmd[2] === 'build' &&
          pi > 0, `${ov.name}: init runs puzzled pdb build --partition ...`);
    check(pi > 0 && cmd[pi + 1] === mainFacts.conf[ov.key],
          `${ov.name}: init builds the partition the server loads ` +
          `(${cmd[pi + 1]})`);
    check(ienv.PUZZLED_PDB_DIR === mainFacts.pdbDir &&
          (init.volumeMounts || []).some(m => m.mountPath === mainFacts.pdbDir),
          `${ov.name}: init writes to the server's pdb_dir ` +
          `${mainFacts.pdbDir}`);
    check(init.image === mainFacts.c.image, `${ov.name}: init uses the ` +
          'server image');
    if (pi < 0 || cmd[0] !== 'puzzled')
        return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-init-'));
    try {
        const args = cmd.slice(1);
        args[pi] = ov.small;    // args[pi] is cmd[pi + 1], the partition
        const env = { ...process.env, PUZZLED_PDB_DIR: dir };
        const child = spawn(PUZZLED, args, {
            env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
        children.add(child);
        let err = '';
        child.stderr.on('data', d => { err += d; });
        const timer = setTimeout(() => kill(child), 60000);
        const code = await exited(child);
        clearTimeout(timer);
        const files = fs.readdirSync(dir).filter(f => f.endsWith('.bin'));
        check(code === 0 && files.length === 1,
              `${ov.name}: the init command (run with ${ov.small}) exits 0 ` +
              `and leaves a table file (exit ${code}, files ${files}` +
              (code ? `, stderr ${err.trim()}` : '') + ')');
        if (files.length !== 1)
            return;
        // The server started on that directory must load, not rebuild.
        const t0 = Date.now();
        let srv;
        try {
            srv = await startPuzzled(['--bind', '127.0.0.1', '--port', '0',
                                      '--access-log', 'off',
                                      '--state-dir', 'off', '--pdb', 'none',
                                      ov.flag, ov.small, '--pdb-dir', dir,
                                      '--workers', '1'],
                                     { ...process.env });
        } catch (e) {
            check(false, `${ov.name}: puzzled starts on the built tables: ` +
                  e.message);
            return;
        }
        const secs = (Date.now() - t0) / 1000;
        check(secs < 3, `${ov.name}: puzzled loads the init's file instead ` +
              `of building (listening after ${secs.toFixed(1)} s)`);
        const r = await get(srv.url + '/readyz');
        check(r.status === 200, `${ov.name}: /readyz -> ${r.status} once ` +
              'the tables are loaded');
        kill(srv.child);
        await exited(srv.child);
    } finally {
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

// One overlay, merged onto the base Deployment; its facts, or null.
async function checkOverlay(ov, all, dep, cms, defaults, image, facts) {
    const okust = (all[path.join(K8S, ov.name, 'kustomization.yaml')] ||
                   [])[0];
    if (!check(okust && (okust.resources || []).includes('../'),
               `${ov.name} overlay builds on the base`))
        return null;
    let merged = dep;
    for (const p of okust.patches || []) {
        const f = path.join(K8S, ov.name, p.path);
        for (const o of all[f] || []) {
            check(o.kind === 'Deployment' &&
                  o.metadata.name === dep.metadata.name,
                  `${ov.name} patch ${p.path} targets the Deployment`);
            merged = merge(merged, o);
        }
    }
    const ofacts = checkDeployment(`${ov.name} Deployment`, merged, cms,
                                   defaults, image);
    if (!ofacts)
        return null;
    check(ov.values.includes(ofacts.conf[ov.key]),
          `${ov.name}: the server loads the ${ov.values[0]} tables ` +
          `(${ov.key} = ${ofacts.conf[ov.key]})`);
    const inits = merged.spec.template.spec.initContainers || [];
    check(inits.length === 1, `${ov.name}: one init container`);
    // auto: the init's --budget is the server's pdb_budget (the same
    // choice), and the docs' row is the set it takes
    if (ofacts.conf[ov.key] === 'auto' && inits.length === 1) {
        const cmd = inits[0].command || [];
        const bi = cmd.indexOf('--budget');
        check(bi > 0 && cmd[bi + 1] === ofacts.conf.pdb_budget,
              `${ov.name}: init --budget ${bi > 0 ? cmd[bi + 1] : '(none)'}` +
              ` = the server's pdb_budget ${ofacts.conf.pdb_budget}`);
        const set = autoSet(ofacts.conf.pdb_budget);
        check(set !== null, `${ov.name}: pdb_budget ` +
              `${ofacts.conf.pdb_budget} takes a 5x5 set`);
        ov = { ...ov, doc: set ? `\`${set}\`` : null };
    }
    if (inits.length === 1) {
        checkOverlayMemory(ov, facts, ofacts, inits[0]);
        await runInit(ov, inits[0], ofacts);
    }
    return ofacts;
}

async function main() {
    const defaults = serverDefaults();
    check(defaults.port !== undefined, '`puzzled serve --help` lists ' +
          `defaults (port ${defaults.port})`);
    const repoConf = parseConf(fs.readFileSync('config/puzzled.conf', 'utf8'));
    const image = dockerImage('Dockerfile');
    if (!check(image !== null, 'Dockerfile exists (the image the pods run)'))
        return;

    const all = {};
    for (const f of yamlFiles(K8S))
        all[f] = loadFile(f);

    // The base, as kustomization.yaml lists it.
    const kust = (all[path.join(K8S, 'kustomization.yaml')] || [])[0] || {};
    const base = [];
    for (const r of kust.resources || []) {
        const f = path.join(K8S, r);
        check(f in all, `kustomization resource ${r} exists`);
        base.push(...(all[f] || []));
    }
    for (const [kind, api] of [['Deployment', 'apps/v1'],
                               ['HorizontalPodAutoscaler', 'autoscaling/v2'],
                               ['PodDisruptionBudget', 'policy/v1'],
                               ['ConfigMap', 'v1']])
        check(byKind(base, kind).length === 1 &&
              byKind(base, kind)[0].apiVersion === api,
              `base has one ${kind} (${api})`);
    const dep = byKind(base, 'Deployment')[0];
    const cms = byKind(base, 'ConfigMap');
    if (!dep)
        return;
    const facts = checkDeployment('Deployment', dep, cms, defaults, image);
    if (!facts)
        return;
    check(facts.cport === Number(defaults.port),
          `containerPort ${facts.cport} = puzzled's built-in default port ` +
          `${defaults.port}`);
    // config/puzzled.conf lists every key commented out with its
    // default, and sets only what `make run` changes.
    const repoPort = repoConf.port ?? defaults.port;
    check(facts.cport === Number(repoPort),
          `containerPort ${facts.cport} = port of config/puzzled.conf ` +
          `(${repoPort})`);
    const svcs = byKind(base, 'Service').filter(x =>
        labelsMatch((x.spec || {}).selector, facts.podLabels));
    check(svcs.length === 1 && svcs[0].apiVersion === 'v1',
          'base has one Service (v1) of the puzzled pods');
    for (const svc of svcs)
        checkService(svc, facts);
    checkRedis(base, facts);
    const pdb = byKind(base, 'PodDisruptionBudget')[0];
    if (pdb)
        check(labelsMatch((pdb.spec.selector || {}).matchLabels,
                          facts.podLabels),
              'PodDisruptionBudget selects the pods');
    for (const hpa of byKind(base, 'HorizontalPodAutoscaler'))
        checkHpa(hpa, dep, pdb);
    // Every ConfigMap key is one puzzled knows (it fails on unknown ones
    // at start; this names the key).
    for (const k of Object.keys(facts.conf))
        check(k in defaults, `ConfigMap key ${k} is a puzzled setting`);

    // The pdb overlays, each merged onto the base Deployment.
    const ofacts = [];
    for (const ov of OVERLAYS) {
        const f = await checkOverlay(ov, all, dep, cms, defaults, image,
                                     facts);
        if (f)
            ofacts.push(f);
    }

    await probeServer(facts);
    for (const f of ofacts)
        await probeServer(f);
    checkDocs(defaults);
}

// docs/operations.md lists every setting and every metric.
function checkDocs(defaults) {
    const doc = fs.readFileSync('docs/operations.md', 'utf8');
    const missing = [];
    for (const k of Object.keys(defaults)) {
        const flag = `--${k.replace(/_/g, '-')}`;
        const env = `PUZZLED_${k.toUpperCase()}`;
        for (const word of [`\`${k}\``, flag, env])
            if (!doc.includes(word))
                missing.push(word);
    }
    check(missing.length === 0, `docs/operations.md names all ` +
          `${Object.keys(defaults).length} settings (key, flag, env)` +
          (missing.length ? `; missing ${missing.join(', ')}` : ''));
    const absent = [...served.metrics].filter(n => !doc.includes(`\`${n}\``));
    check(served.metrics.size > 0 && absent.length === 0,
          `docs/operations.md names all ${served.metrics.size} metrics` +
          (absent.length ? `; missing ${absent.join(', ')}` : ''));
}

main().catch(e => check(false, `unexpected: ${e.stack || e}`)).finally(() => {
    for (const c of children)
        kill(c);
    if (failures.length) {
        console.log(`k8s_check: ${failures.length} of ` +
                    `${passed + failures.length} checks failed`);
        process.exitCode = 1;
    } else {
        console.log(`k8s_check: all ${passed} checks hold`);
    }
});
