# SPDX-License-Identifier: GPL-3.0-or-later
"""The hostile review's set-up (its folders, the programs it runs), the run of one case and what it checks,
and the real inputs the cases damage."""
import json, os, re, shutil, stat, subprocess, sys, time


SRC, BUILD, WORK = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
SKIP_LARGE = "--skip-large" in sys.argv
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
CLI = os.path.join(BUILD, "app/crossroof-cli")
RENDER = os.path.join(BUILD, "app/crossroof-render")
if not os.access(CLI, os.X_OK):
    sys.exit("hostile_review: no %s (build crossroof-cli first)" % CLI)
HAVE_RENDER = os.access(RENDER, os.X_OK)
if not HAVE_RENDER:
    print("(no %s: the cases that render are skipped)" % RENDER)

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
W = WORK.encode()
HOME = os.path.join(WORK, "home")
XDG = os.path.join(WORK, "xdg")
os.makedirs(os.path.join(XDG, "Crossroof/profiles"))
os.makedirs(HOME)
ENV = dict(os.environ, HOME=HOME, XDG_DATA_HOME=XDG, XDG_CONFIG_HOME=os.path.join(WORK, "cfg"),
           QT_QPA_PLATFORM="offscreen", LC_ALL="C.UTF-8")

CLASSES = {
    1: "user profiles and JSON: huge, deep, duplicated",
    2: "valid but large inputs",
    3: "session links",
    4: "FIFOs and device nodes as inputs",
    5: "numbers at a double's edges in every field",
    6: "Latin-1 paths (inputs, --out, user profiles, --json)",
    7: "values with line breaks or 100k characters",
    8: "messages that name the file, line and field",
    9: "--out targets: links, folders, FIFOs, devices, full disk",
    10: "saved files that read back (calibrate --out, render)",
    11: "write errors give the system's reason",
}
results = {c: [0, 0] for c in CLASSES}
failures = []


def path(*parts):
    return os.path.join(WORK, *parts)


def write(name, data):
    p = name if isinstance(name, bytes) else path(name).encode()
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return p


def read(rel):
    with open(os.path.join(SRC, rel), "rb") as f:
        return f.read()


NONFINITE = re.compile(rb"(^|[^a-z0-9_.])-?(nan|inf|infinity)([^a-z0-9_]|$)")


def non_finite(text, paths):
    for p in paths:
        text = text.replace(p, b"")
    text = re.sub(rb"'[^'\n]*'", b"", text)
    text = re.sub(rb'"[^"\n]*"', b"", text)
    return NONFINITE.search(text.lower()) is not None


def run(cls, name, args, expect=(0, 2), large=False, exe=None, stdin=None, must=None, check_json=None,
        env=None, paths=(), max_message=400):
    """Runs one case; returns (status, stdout, stderr) or None when skipped."""
    if ONLY and str(cls) != ONLY:
        return None
    if large and SKIP_LARGE:
        return None
    if not HAVE_RENDER and (exe == RENDER or args[0] == "render"):
        return None
    limit = 60 if large else 10
    mem_limit = (2 << 20) if large else (1 << 20)  # KiB
    argv = [exe or CLI] + [a if isinstance(a, bytes) else str(a).encode() for a in args]
    tfile = path("time.out")
    start = time.time()
    try:
        p = subprocess.run([b"/usr/bin/time", b"-f", b"%e %M", b"-o", tfile.encode(),
                            b"timeout", b"-k", b"2", str(limit).encode()] + argv,
                           stdin=stdin if stdin is not None else subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env or ENV, timeout=limit + 10, cwd=WORK)
        status, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        status, out, err = 124, b"", b""
    wall = time.time() - start
    rss = 0
    try:
        with open(tfile) as f:
            last = f.read().strip().splitlines()[-1].split()
            rss = int(last[1])
    except (OSError, IndexError, ValueError):
        pass
    results[cls][0] += 1
    problems = []
    if status in (124, 137):
        problems.append("no answer within %d s" % limit)
    elif status not in expect:
        problems.append("exit status %d, expected %s" % (status, " or ".join(map(str, expect))))
    if b"internal error" in err:
        problems.append("internal error")
    if status == 2 and err.count(b"\n") != 1:
        problems.append("standard error has %d lines" % err.count(b"\n"))
    all_paths = [a for a in argv[1:] if b"/" in a] + [W] + [p if isinstance(p, bytes) else p.encode() for p in paths]
    all_paths += [os.path.basename(a) for a in all_paths if os.path.basename(a)]
    rest = err
    for a in sorted(all_paths, key=len, reverse=True):
        rest = rest.replace(a, b"")
    longest = max(len(line) for line in rest.split(b"\n"))
    if longest > max_message:
        problems.append("a message of %d characters" % longest)
    if non_finite(out[:200000] + err, all_paths):
        problems.append("inf or nan in the output")
    if status == 0 and b"--json" in argv:
        try:
            json.loads(out.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            problems.append("--json output is not UTF-8 JSON (%s)" % str(e)[:80])
    if must is not None and status == 2 and not re.search(must.encode(), err):
        problems.append("the message does not say /%s/" % must)
    if check_json is not None and status == 0:
        why = check_json(out)
        if why:
            problems.append(why)
    if wall > limit:
        problems.append("took %.1f s" % wall)
    if rss > mem_limit:
        problems.append("%d MB of memory" % (rss >> 10))
    if large:
        print("LARGE %-40s %6.1f s %6d MB exit %d" % (name, wall, rss >> 10, status))
    if problems:
        results[cls][1] += 1
        line = "FAIL [%d] %s: %s" % (cls, name, "; ".join(problems))
        failures.append(line)
        print(line)
        detail = (err or out)[:300].decode("utf-8", "backslashreplace").replace("\n", "|")
        print("     " + detail)
    return status, out, err


# ----------------------------------------------------------------------------------------------- inputs
FAMILY = read("tests/data/h100_sxm/family.csv")
STREAM = read("tests/data/h100_sxm/stream.csv")
LATENCY = read("tests/data/h100_sxm/latency.csv")
CACHE = read("tests/data/h100_sxm/cache.csv")
DEVICE = read("tests/data/h100_sxm/device.csv")
PARALLEL = read("tests/data/probe_parallel/parallel.csv")
TRAINING = read("docs/samples/modeltree-training.csv")
PERF = read("tests/data/perf_stat_excerpt.tsv")
GPUSTREAM = read("tests/data/gpu_stream_v100.txt")
NCU_RAW = read("tests/data/ncu_h100_raw.csv")
SKELETON = read("docs/samples/skeletons/haccmk.skel")
PROFILE = read("hardware_profiles/h100-sxm.json")
SESSION = read("docs/samples/v100-measured.crossroof")

NUMBERS = {
    "1e308": "1e308", "minus-1e308": "-1e308", "denormal": "4.9e-324", "minus-denormal": "-4.9e-324",
    "1e-320": "1e-320", "minus-zero": "-0", "1e400": "1e400", "hex": "0x1p4", "plus": "+5", "NaN": "NaN",
    "minus-inf": "-inf", "Infinity": "Infinity", "spaces": " 5 ", "comma": "1,5", "e-only": "1e",
    "huge-digits": "9" * 400, "underscore": "1_000",
}


def csv_variants(text, skip_cols=()):
    """(column, label, new text) for each numeric column of the first data row of a plain CSV."""
    lines = text.decode().splitlines()
    hi = next(i for i, l in enumerate(lines) if not l.startswith("#"))
    header = lines[hi].split(",")
    row = lines[hi + 1].split(",")
    for c, name in enumerate(header):
        if name in skip_cols:
            continue
        try:
            float(row[c])
        except ValueError:
            continue
        for label, value in NUMBERS.items():
            r = list(row)
            r[c] = '"%s"' % value if "," in value else value
            out = lines[:hi + 1] + [",".join(r)] + lines[hi + 2:]
            yield name, label, ("\n".join(out) + "\n").encode()




def fail_line(cls, text, count=True):
    if count:
        results[cls][0] += 1
    results[cls][1] += 1
    line = "FAIL [%d] %s" % (cls, text)
    failures.append(line)
    print(line)
