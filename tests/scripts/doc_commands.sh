#!/bin/sh
# doc_commands.sh - every command README.md, CONTRIBUTING.md, deploy/
# README.md and docs/*.md tell a user to run works from a clone. It takes
# the commands from their code blocks (```sh: every line; ```console and
# any other block: the lines starting with "$ "), and
#   - fails if a command, or any line of these files, names a path
#     outside the repository (../shared, /work/...): a clone has neither;
#   - checks that the repository files, sources of the binaries and make
#     targets each command names exist;
#   - runs the cheap ones (CLI solves, --help, random, score, the
#     reference solver's build) against the built binary, and where a
#     console block shows the output's first line, compares it.
# What is not run is matched by the SKIP list below, each with its reason;
# a command matching neither list is checked (paths, targets), not run.
# A passing run prints one line; VERBOSE=1 (or a failure) also lists what
# was not run and why.
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
PUZZLED=${PUZZLED:-$BUILD/puzzled}
command -v python3 >/dev/null 2>&1 || { echo "python3 not installed" >&2
                                         exit 77; }
[ -x "$PUZZLED" ] || { echo "$PUZZLED not built" >&2; exit 1; }
# 4x4 solves read the 6-6-3 tables the unit tests keep in $BUILD/pdb-cache
# (built there on first use, as pdb-cache/ would be).
PUZZLED_PDB_DIR="$BUILD/pdb-cache"
export BUILD PUZZLED PUZZLED_PDB_DIR
exec python3 - README.md CONTRIBUTING.md deploy/README.md docs/*.md <<'EOF'
import os, re, subprocess, sys, glob

PUZZLED = os.environ["PUZZLED"]

# Commands run, by the pattern of the whole command (after `$ `).
RUN = [
    r"^build/puzzled (solve|random|score)\b",
    r"^build/puzzled( \w+)? --help$",
    r"^build/puzzled --version$",
    r"^cc -O2 -Wall -Wextra -Werror -o build/ref8 bench/ref/ref8\.c$",
]
# Commands not run, and why. First match wins.
SKIP = [
    (r"^(apt-get|apt|npm|git clone)\b", "installs packages or clones"),
    (r"(^|[ ;(])make\b", "make: only its targets are checked (run/test/install take minutes or need root)"),
    (r"\bcurl\b", "needs a running server; README's are run by http_readme_examples.sh"),
    (r"^(docker|kubectl|kustomize|redis-server|redis-cli|nginx|systemctl|wrk)\b", "needs a container runtime, a cluster or a service"),
    (r"\bpuzzled serve\b", "starts a server"),
    (r"\bpuzzled pdb\b", "builds tables: seconds to minutes and up to 1.3 GB"),
    (r"\bpuzzled key new\b", "writes a key file into the checkout"),
    (r"(^|[ (])(nice( -n \d+)? )?(build/bench/|build/ref8\b|bench/\S+\.sh|sh bench/|\S+=\S+ sh bench/)", "a benchmark: minutes of CPU"),
    (r"pkg-config|^\./solve8\b", "links against the installed library: tests/scripts/install.sh does, in a scratch prefix"),
    (r"^(\S+=\S+ )*(node|valgrind|perf|gdb|cmp|nm|ldd|cc|gcc)\b", "a developer's tool run on build products or a browser test (minutes)"),
    (r"^(\S+=\S+ )*(tests/|sh tests/|BUILD=)", "a test suite: make test runs it"),
    (r"scripts/footprint\.sh", "minutes: simulates apt's installs, --pdb builds every table"),
    (r"^(PUZZLED_\w+=\S+ )", "starts the service with a setting"),
    (r"^(id|token|board|moves)=", "needs a running server"),
    (r"^(cd|export|ulimit|kill|wait|sleep|ls|du|cat|echo|sudo)\b", "a shell step, nothing of puzzled's to check"),
]
OUTSIDE = re.compile(r"(\.\./shared|/work/)")
PATH_TOKEN = re.compile(
    r"(?<![\w/.$-])((?:bench|tests|scripts|docs|deploy|config|src|include|"
    r"www|examples|fuzz|build|man|lib)/[\w./-]*[\w/]|openapi\.yaml|"
    r"Makefile|Dockerfile|package\.json)")

def commands(path):
    """(line number, command, first output line or None) of a file."""
    out, lang, block, start = [], None, [], 0
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        m = re.match(r"^\s*```(\w*)\s*$", line)
        if m and lang is None:
            lang, block, start = m.group(1) or "text", [], n + 1
            continue
        if m and lang is not None:
            out += block_commands(lang, block, start)
            lang = None
            continue
        if lang is not None:
            block.append(line)
    return out

def block_commands(lang, lines, start):
    found, i = [], 0
    while i < len(lines):
        line, n = lines[i].strip(), start + i
        i += 1
        if lang == "sh" and not line.startswith("$ "):
            if not line or line.startswith("#"):
                continue
            cmd = line
        elif line.startswith("$ "):
            cmd = line[2:]
        else:
            continue
        while cmd.endswith("\\") and i < len(lines):
            cmd = cmd[:-1] + " " + lines[i].strip()
            i += 1
        expect = None
        if lang != "sh" and i < len(lines) and lines[i].strip() \
           and not lines[i].startswith("$ "):
            expect = lines[i].strip()
        cmd = strip_comment(cmd)
        found.append((n, cmd, expect))
    return found

def strip_comment(cmd):
    """A "  # comment" outside quotes is the reader's, not the shell's."""
    quote = None
    for i, c in enumerate(cmd):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and cmd[max(0, i - 2):i] == "  ":
            return cmd[:i].strip()
    return cmd.strip()

def make_targets():
    targets = set()
    for line in open("Makefile", encoding="utf-8"):
        m = re.match(r"^([^\t#=:][^=:]*?)\s*::?(?!=)", line)
        if m:
            targets.update(m.group(1).split())
    return targets

def produced(all_cmds):
    """Files the documents' own commands write (cc -o X, --out X)."""
    made = set()
    for _, cmd, _ in all_cmds:
        made.update(re.findall(r"(?:-o|--out)\s+(\S+)", cmd))
    return made

def check_paths(cmd, made):
    errs = []
    for p in PATH_TOKEN.findall(cmd):
        p = p.rstrip(".")
        if any(c in p for c in "*$<>{}[]") or re.search(r"/[A-Z]+(/|$)", p):
            continue    # a placeholder or a pattern
        if p in made:
            continue
        if p.startswith("build/"):
            rest = p[len("build/"):]
            if p == "build/puzzled":
                ok = os.access(PUZZLED, os.X_OK)
            elif rest.startswith("bench/"):
                ok = os.path.exists("bench/" + rest[6:] + ".c")
            elif rest.startswith("tests/"):
                ok = os.path.exists("tests/" + rest[6:] + ".c")
            else:
                ok = True   # build products: pdb caches, logs
            if not ok:
                errs.append(f"{p}: no source for it")
        elif not os.path.exists(p):
            errs.append(f"{p}: no such file in the repository")
    return errs

def check_make(cmd, targets):
    errs = []
    for m in re.finditer(r"(?:^|[;&|(]\s*)make((?:\s+[^\s;&|)]+)*)", cmd):
        for w in m.group(1).split():
            if w.startswith(("-", ">", "2>")) or "=" in w:
                continue
            if w not in targets and not os.path.exists(w):
                errs.append(f"make {w}: no such target in the Makefile")
    return errs

BUILDING = re.compile(r"^puzzled: building .*pattern databases", re.M)

def run(cmd, expect):
    shell = cmd.replace("build/puzzled", PUZZLED)
    try:
        p = subprocess.run(shell, shell=True, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=90)
        # A first solve of a size builds that size's tables and says so
        # (a note, then progress lines), once per cache: on a fresh
        # build/ that came first and failed the comparison. The document
        # shows a later run's output, so the command runs again.
        if BUILDING.search(p.stdout):
            p = subprocess.run(shell, shell=True, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=90)
    except subprocess.TimeoutExpired:
        return ["did not finish in 90 s"]
    if p.returncode > 3:
        return [f"exit status {p.returncode}: "
                f"{p.stdout.strip()[:200]}"]
    if expect is not None:
        got = p.stdout.split("\n", 1)[0].strip()
        want = expect.split("...")[0].rstrip()
        if "not proven optimal" in want:
            # A time budget's answer: its length depends on the machine.
            got, want = (re.sub(r"\d+", "N", x) for x in (got, want))
        ok = got.startswith(want) if "..." in expect else got == want
        if not ok:
            return [f"first line {got[:120]!r}, the document shows "
                    f"{expect[:120]!r}"]
    return []

files = [f for f in sys.argv[1:] if os.path.exists(f)]
failed = ran = skipped = checked = 0
for f in files:
    for n, line in enumerate(open(f, encoding="utf-8"), 1):
        if OUTSIDE.search(line):
            print(f"FAIL {f}:{n}: names a path outside the repository: "
                  f"{line.strip()[:120]}")
            failed += 1
all_cmds = [(f, c) for f in files for c in commands(f)]
made = produced([c for _, c in all_cmds])
targets = make_targets()
skips = {}
details = []
for f, (n, cmd, expect) in all_cmds:
    errs = check_paths(cmd, made) + check_make(cmd, targets)
    if any(re.search(r, cmd) for r in RUN):
        errs += run(cmd, expect)
        ran += 1
    else:
        why = next((w for r, w in SKIP if re.search(r, cmd)), None)
        if why:
            skipped += 1
            skips[why] = skips.get(why, 0) + 1
        else:
            checked += 1
            details.append(f"checked, not run: {f}:{n}: {cmd[:100]}")
    for e in errs:
        print(f"FAIL {f}:{n}: {cmd[:100]}\n    {e}")
        failed += 1
details += [f"not run ({why}): {k}" for why, k in sorted(skips.items())]
if failed or os.environ.get("VERBOSE"):
    print("\n".join(details))
print(f"{len(all_cmds)} commands in {len(files)} files: {ran} run, "
      f"{skipped} not run (VERBOSE=1 says why), {checked} checked only; "
      f"{failed} failed")
sys.exit(1 if failed else 0)
EOF
