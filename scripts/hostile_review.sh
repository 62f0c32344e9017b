#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A hostile review of the command line (docs/TESTING.md, "Bad input", the third round): writes inputs of the
# eleven kinds of damage of the hostile-input issues that tests/data/bad/ does not hold (numbers at and past
# a double's edges in every numeric field of every reader, user profiles that are huge, deep or duplicated,
# FIFOs and device nodes, Latin-1 paths, --out targets that are links, folders, FIFOs or device nodes, a full
# disk, line breaks and 100,000 characters in values, valid inputs of a million rows) and runs each through
# crossroof-cli or crossroof-render, checking what a user would see:
#
#   - the exit status is 0 or 2 as the case expects, never 1 ("internal error"), a signal or the time limit;
#   - a refusal is one line on standard error, of at most 400 characters besides the paths it names;
#   - no 'inf' or 'nan' outside quotes, and --json output that is valid UTF-8 JSON;
#   - each run under 10 s (LARGE cases: 60 s) and 1 GiB of memory (LARGE: 2 GiB), measured by /usr/bin/time.
#
#   scripts/hostile_review.sh BUILD_DIR WORK_DIR [--skip-large] [--only CLASS]
#
# Prints one line per failure, then a table of cases and failures per class; exits 1 when anything failed.
# Needs python3 and GNU time; the full-disk cases need root (a 64 KiB tmpfs) and are skipped without it.
set -uo pipefail
if [[ $# -lt 2 ]]; then
    sed -n '4,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
fi
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 - "$src" "$@" <<'PY'
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


def numeric_class():
    cls = 5
    readers = [
        ("family", FAMILY, lambda f: ["calibrate", "--family", f, "--profile", "h100-sxm", "--json"]),
        ("stream", STREAM, lambda f: ["fit-trace", "--trace", f, "--x", "warps_per_sm", "--y", "read_gbs", "--json"]),
        ("stream-cal", STREAM, lambda f: ["calibrate", "--family", path("family.csv"), "--stream", f,
                                          "--profile", "h100-sxm"]),
        ("latency", LATENCY, lambda f: ["calibrate", "--family", path("family.csv"), "--latency", f,
                                        "--profile", "h100-sxm"]),
        ("cache", CACHE, lambda f: ["fit-trace", "--trace", f, "--x", "warps_per_sm", "--y", "request_gbs",
                                    "--model", "locality", "--profile", "h100-sxm", "--json"]),
        ("parallel", PARALLEL, lambda f: ["calibrate", "--family", path("family.csv"), "--parallel", f,
                                          "--profile", "h100-sxm"]),
        ("training", TRAINING, lambda f: ["extrapolate", "--train", f, "--target-size", "160", "--json"]),
    ]
    write("family.csv", FAMILY)
    for tag, text, argv in readers:
        for col, label, data in csv_variants(text):
            f = write("num/%s-%s-%s.csv" % (tag, col, label), data)
            run(cls, "%s %s=%s" % (tag, col, label), argv(f.decode()))
    # The probe's device.csv: KEY,VALUE lines.
    lines = DEVICE.decode().splitlines()
    for i, line in enumerate(lines):
        key, _, value = line.partition(",")
        try:
            float(value)
        except ValueError:
            continue
        for label, v in NUMBERS.items():
            d = path("probe/%s-%s" % (key, label))
            os.makedirs(d)
            for n, t in (("stream.csv", STREAM), ("latency.csv", LATENCY), ("family.csv", FAMILY)):
                write(os.path.join(d, n).encode(), t)
            ls = list(lines)
            ls[i] = key + "," + (('"%s"' % v) if "," in v else v)
            write(os.path.join(d, "device.csv").encode(), "\n".join(ls) + "\n")
            run(cls, "probe device.csv %s=%s" % (key, label), ["calibrate", "--probe", d, "--json"],
                must="device.csv")
    # gpu-stream text: the blockSize, threads and a GB/s column of the first row.
    gl = GPUSTREAM.decode().splitlines()
    fields = gl[1].split()
    for idx, col in ((0, "blockSize"), (1, "threads"), (6, "init"), (9, "triad")):
        for label, v in NUMBERS.items():
            if " " in v or "," in v:
                continue
            fs = list(fields)
            fs[idx] = v
            f = write("num/gpustream-%s-%s.txt" % (col, label), "\n".join([gl[0], "  ".join(fs)] + gl[2:]) + "\n")
            run(cls, "gpu-stream %s=%s" % (col, label), ["fit-trace", "--trace", f, "--format", "gpu-stream",
                                                         "--json"])
    # perf stat: time, count, run time and percentage of the first imc line.
    pl = PERF.decode().splitlines()
    k = next(i for i, l in enumerate(pl) if "imc/" in l)
    for idx, col in ((0, "time"), (2, "count"), (5, "runtime"), (6, "percent")):
        for label, v in NUMBERS.items():
            fs = pl[k].split("\t")
            fs[idx] = v
            ls = list(pl)
            ls[k] = "\t".join(fs)
            f = write("num/perf-%s-%s.tsv" % (col, label), "\n".join(ls) + "\n")
            run(cls, "perf stat %s=%s" % (col, label), ["bandwidth-curve", "--trace", f, "--format", "perf-stat",
                                                        "--column", "imc-bytes", "--limit", "1e8", "--json"])
    # ncu raw: each metric the model reads, in the first kernel's row.
    import csv, io
    nl = NCU_RAW.decode().splitlines(keepends=True)
    hi = next(i for i, l in enumerate(nl) if l.startswith('"ID"'))
    header = next(csv.reader([nl[hi]]))
    cols = [c for c in header if c.startswith(("dram__bytes", "gpu__time", "l1tex__t_", "launch__registers",
            "launch__shared_mem_per_block", "launch__sm_count", "lts__t_sector_hit", "sm__warps_active.avg.per",
            "sm__inst_executed", "smsp__inst_executed.sum", "sm__cycles_elapsed.avg", "device__attribute_clock",
            "device__attribute_multiprocessor", "device__attribute_max_warps", "launch__block_size",
            "launch__grid_size"))]
    row = next(csv.reader([nl[hi + 2]]))
    for col in cols:
        c = header.index(col)
        for label, v in NUMBERS.items():
            r = list(row)
            r[c] = v
            s = io.StringIO()
            csv.writer(s, quoting=csv.QUOTE_ALL, lineterminator="\n").writerow(r)
            f = write("num/ncu-%s-%s.csv" % (col, label), "".join(nl[:hi + 2]) + s.getvalue() + "".join(nl[hi + 3:]))
            run(cls, "ncu %s=%s" % (col, label), ["kernels", "--trace", f, "--profile", "h100-sxm", "--json"])
    # skeleton: a variable, a loop bound, --measured.
    for label, v in NUMBERS.items():
        if " " in v or "," in v:
            continue
        f = write("num/skel-count-%s.skel" % label, SKELETON.decode().replace(":count = 327", ":count = " + v))
        run(cls, "skeleton :count=%s" % label, ["skeleton", "--file", f, "--profile", "xeon-phi-7210", "--json"])
        f = write("num/skel-loop-%s.skel" % label, SKELETON.decode().replace("for i = 0:count", "for i = 0:" + v))
        run(cls, "skeleton loop bound=%s" % label, ["skeleton", "--file", f])
        run(cls, "skeleton --measured 1=%s" % label, ["skeleton", "--file", path("num/skel-count-plus.skel"),
                                                     "--measured", "1=" + v])
    # profile and session: every number of the JSON, one at a time.
    prof = json.loads(PROFILE)
    for key in sorted(prof["parameters"]):
        if not isinstance(prof["parameters"][key], (int, float)):
            continue
        for label, v in (("1e308", "1e308"), ("denormal", "4.9e-324"), ("1e400", "1e400"), ("minus-zero", "-0.0"),
                         ("huge-int", "1" + "0" * 30), ("minus-denormal", "-4.9e-324")):
            text = json.dumps(prof).replace('"%s": %s' % (key, json.dumps(prof["parameters"][key])),
                                            '"%s": %s' % (key, v), 1)
            f = write("num/profile-%s-%s.json" % (key, label), text)
            run(cls, "profile %s=%s" % (key, label), ["xgraph", "--profile", f, "--json"])
            run(cls, "profile %s=%s advise" % (key, label), ["advise", "--profile", f, "--json"])
    sess = SESSION.decode()
    nums = list(re.finditer(r'(?<=: )-?[0-9][0-9.eE+-]*', sess))
    for m in nums[:: max(1, len(nums) // 40)]:
        for label, v in (("1e308", "1e308"), ("denormal", "4.9e-324"), ("minus-1e308", "-1e308"), ("1e400", "1e400")):
            text = sess[:m.start()] + v + sess[m.end():]
            f = write("num/session-%d-%s.crossroof" % (m.start(), label), text)
            key = sess[:m.start()].rsplit('"', 2)[-2]
            run(cls, "session %s@%d=%s" % (key, m.start(), label),
                ["render", "--session", f, "--view", "xgraph", "--out", path("num/out.svg")])


def user_profile_class():
    cls = 1
    ud = path("xdg/Crossroof/profiles")
    # Bad user profiles beside good commands: each command must stay quick, whatever the folder holds.
    big = '{"format_version": 1, "id": "big", ' + ", ".join('"k%d": %d' % (i, i) for i in range(150000)) + "}"
    write((ud + "/keys-150k.json").encode(), big)
    write((ud + "/dup-keys.json").encode(), "{" + ", ".join('"a": %d' % i for i in range(100000)) + "}")
    write((ud + "/empty-objects.json").encode(), "[" + ",".join(["{}"] * 200000) + "]")
    write((ud + "/deep.json").encode(), "[" * 200000 + "]" * 200000)
    write((ud + "/deep-objects.json").encode(), '{"a":' * 100000 + "1" + "}" * 100000)
    write((ud + "/long-string.json").encode(), '{"format_version": 1, "id": "' + "x" * 900000 + '"}')
    write((ud + "/numbers.json").encode(), "[" + ",".join(["1e308"] * 100000) + "]")
    write((ud + "/nul.json").encode(), b"\0" * 500000)
    os.symlink("/nonexistent/target.json", ud + "/dangling.json")
    os.mkdir(ud + "/folder.json")
    os.mkfifo(ud + "/fifo.json")
    dup = json.loads(PROFILE)
    dup["name"] = "duplicate id"
    write((ud + "/dup-id-1.json").encode(), json.dumps(dup))
    write((ud + "/dup-id-2.json").encode(), json.dumps(dup))
    for argv in (["xgraph"], ["xgraph", "--json"], ["profiles"], ["profiles", "--json"],
                 ["xgraph", "--profile", "h100-sxm"], ["xgraph", "--profile", "no-such-profile"],
                 ["advise", "--profile", "h100-sxm"], ["mappings", "--profile", "clovertown-x5365", "--p", "0.5",
                 "--q", "0.5"], ["occupancy", "--cc", "8.0", "--threads", "256", "--regs", "32", "--smem", "0"],
                 ["kernels", "--trace", os.path.join(SRC, "tests/data/ncu_h100_raw.csv"), "--profile", "h100-sxm"]):
        # An unknown id lists the bundled ids and three of the skipped files (docs/CLI.md).
        run(cls, "user folder of bad profiles: " + " ".join(argv), argv,
            must="no-such-profile" if "no-such-profile" in argv else None,
            max_message=1100 if "no-such-profile" in argv else 400)
    run(cls, "render with the bad user folder", ["--session", os.path.join(SRC, "docs/samples/v100-measured.crossroof"),
        "--view", "xgraph", "--out", path("u.svg")], exe=RENDER)
    # The same files given directly.
    for n in ("keys-150k", "dup-keys", "empty-objects", "deep", "deep-objects", "numbers", "nul"):
        run(cls, "--profile %s.json" % n, ["xgraph", "--profile", ud + "/" + n + ".json"], expect=(2,))
    for n in ("keys-150k", "empty-objects", "deep"):
        f = ud + "/" + n + ".json"
        run(cls, "--session %s.json" % n, ["render", "--session", f, "--view", "xgraph", "--out", path("u.svg")],
            expect=(2,))
        run(cls, "counters --file %s.json" % n, ["counters", "--file", f], expect=(2,))
    # Huge session: a valid one with 200,000 extra keys at the top.
    s = json.loads(SESSION)
    for i in range(200000):
        s["x%d" % i] = i
    f = write("session-200k-keys.crossroof", json.dumps(s))
    run(cls, "session with 200k unknown keys", ["render", "--session", f, "--view", "xgraph", "--out", path("u.svg")])
    for name in os.listdir(ud):
        if name.startswith("dup-id"):
            os.unlink(os.path.join(ud, name))


def special_files_class():
    cls = 4
    d = path("special")
    os.makedirs(d)
    fifo = d + "/fifo.csv"
    os.mkfifo(fifo)
    nodes = {}
    for name, (major, minor) in (("zero", (1, 5)), ("random", (1, 8)), ("null", (1, 3))):
        try:
            os.mknod(d + "/" + name, 0o600 | stat.S_IFCHR, os.makedev(major, minor))
            nodes[name] = d + "/" + name
        except OSError:
            pass
    readers = [
        ("--profile", lambda f: ["xgraph", "--profile", f]),
        ("--session", lambda f: ["render", "--session", f, "--view", "xgraph", "--out", path("special-out.svg")]),
        ("--trace table", lambda f: ["fit-trace", "--trace", f, "--format", "csv", "--x", "a", "--y", "b"]),
        ("--trace ncu", lambda f: ["kernels", "--trace", f, "--profile", "h100-sxm"]),
        ("--trace perf", lambda f: ["bandwidth-curve", "--trace", f, "--format", "perf-stat", "--column", "imc-bytes",
                                    "--limit", "1e8"]),
        ("--family", lambda f: ["calibrate", "--family", f, "--profile", "h100-sxm"]),
        ("--stream", lambda f: ["calibrate", "--family", path("family.csv"), "--stream", f, "--profile", "h100-sxm"]),
        ("--file skeleton", lambda f: ["skeleton", "--file", f]),
        ("--train", lambda f: ["extrapolate", "--train", f, "--target-size", "160"]),
        ("counters --file", lambda f: ["counters", "--file", f]),
        ("tmm --fit", lambda f: ["tmm", "--fit", f]),
        ("--trace auto", lambda f: ["fit-trace", "--trace", f]),
    ]
    write("family.csv", FAMILY)
    for what, argv in readers:
        run(cls, "%s FIFO without a writer" % what, argv(fifo), expect=(2,), must="FIFO|fifo")
        for name, node in nodes.items():
            run(cls, "%s device node (%s)" % (what, name), argv(node), expect=(2,))
        run(cls, "%s a folder" % what, argv(d), expect=(2,))
    # A probe folder whose device.csv is a FIFO, and a user profile that is a device node.
    pd = path("special/probe")
    os.makedirs(pd)
    for n, t in (("stream.csv", STREAM), ("latency.csv", LATENCY)):
        write((pd + "/" + n).encode(), t)
    os.mkfifo(pd + "/device.csv")
    run(cls, "--probe with device.csv a FIFO", ["calibrate", "--probe", pd], expect=(2,))
    if "zero" in nodes:
        ud = path("xdg/Crossroof/profiles")
        os.mknod(ud + "/zero.json", 0o600 | stat.S_IFCHR, os.makedev(1, 5))
        run(cls, "user profile that is /dev/zero's device", ["xgraph"], expect=(0,))
        run(cls, "profiles with a device-node user profile", ["profiles", "--json"], expect=(0,))
        os.unlink(ud + "/zero.json")
    # A session that links a device node.
    if "zero" in nodes or "random" in nodes:
        node = nodes.get("random") or nodes["zero"]
        s = json.loads(SESSION)
        if s.get("traces"):
            t = s["traces"][0]
            t.pop("points", None)
            t["link"] = node
            f = write("special/link-device.crossroof", json.dumps(s))
            run(cls, "session linking a device node", ["render", "--session", f, "--view", "xgraph",
                                                       "--out", path("special-out.svg")])


def latin1_class():
    cls = 6
    d = W + b"/r\xe9sultats"
    os.makedirs(d)
    fam = write(d + b"/famille-\xe9t\xe9.csv", FAMILY)
    st = write(d + b"/\xe9.csv", STREAM)
    prof = write(d + b"/h\xe9.json", PROFILE)
    nc = write(d + b"/ncu-\xe9.csv", NCU_RAW)
    sk = write(d + b"/\xe9.skel", SKELETON)
    tr = write(d + b"/\xe9-train.csv", TRAINING)
    perf = write(d + b"/\xe9.tsv", PERF)
    sess = write(d + b"/s\xe9ance.crossroof", SESSION)
    bad = write(d + b"/bad-\xe9.csv", b"n,Z,E,gbs\n1,2,3,x\n")
    ud = path("xdg/Crossroof/profiles").encode()
    p = json.loads(PROFILE)
    p["id"] = "latin1-user"
    write(ud + b"/l\xe9-user.json", json.dumps(p))
    write(ud + b"/bad-\xe9.json", b'{"format_version": 1}')
    cases = [
        ("profiles --json", ["profiles", "--json"]),
        ("xgraph --profile latin1 --json", ["xgraph", "--profile", prof, "--json"]),
        ("xgraph user latin1", ["xgraph", "--profile", "latin1-user", "--json"]),
        ("calibrate --json", ["calibrate", "--family", fam, "--profile", "h100-sxm", "--json"]),
        ("calibrate --out latin1", ["calibrate", "--family", fam, "--profile", "h100-sxm", "--out", d + b"/out-\xe9.json"]),
        ("calibrate --stream latin1 --json", ["calibrate", "--family", fam, "--stream", st, "--profile", "h100-sxm", "--json"]),
        ("fit-trace --json", ["fit-trace", "--trace", st, "--x", "warps_per_sm", "--y", "read_gbs", "--json"]),
        ("fit-trace --format csv", ["fit-trace", "--trace", st, "--x", "warps_per_sm", "--y", "read_gbs", "--format", "csv"]),
        ("kernels --json", ["kernels", "--trace", nc, "--profile", "h100-sxm", "--json"]),
        ("kernels --format csv", ["kernels", "--trace", nc, "--profile", "h100-sxm", "--format", "csv"]),
        ("kernels text", ["kernels", "--trace", nc, "--profile", "h100-sxm"]),
        ("skeleton --json", ["skeleton", "--file", sk, "--json"]),
        ("extrapolate --json", ["extrapolate", "--train", tr, "--target-size", "160", "--json"]),
        ("bandwidth-curve --json", ["bandwidth-curve", "--trace", perf, "--format", "perf-stat", "--column",
                                    "imc-bytes", "--limit", "1e8", "--json"]),
        ("render --session latin1", ["render", "--session", sess, "--view", "xgraph", "--out", d + b"/\xe9.svg"]),
        ("bad file in latin1", ["calibrate", "--family", bad, "--profile", "h100-sxm", "--json"]),
        ("missing latin1 file", ["xgraph", "--profile", d + b"/missing-\xe9.json"]),
        ("missing latin1 --json", ["fit-trace", "--trace", d + b"/missing-\xe9.csv", "--json"]),
        ("advise latin1 --json", ["advise", "--profile", prof, "--json"]),
        ("stability-map latin1", ["stability-map", "--profile", prof, "--x", "n:1:96:8", "--y", "Z:4:40:6", "--json"]),
        ("tmm --fit latin1", ["tmm", "--fit", st, "--json"]),
    ]
    for name, argv in cases:
        r = run(cls, name, argv, paths=[d])
    run(cls, "crossroof-render latin1", ["--session", sess, "--view", "xgraph", "--out", d + b"/r-\xe9.png"],
        exe=RENDER, paths=[d])
    if os.path.exists(d + b"/out-\xe9.json"):
        run(10, "calibrate --out latin1 reads back", ["xgraph", "--profile", d + b"/out-\xe9.json", "--json"],
            expect=(0,), paths=[d])
    # Invalid UTF-8 in a field of a file, echoed in a message and in JSON.
    f = write(d + b"/name.json", PROFILE.replace(b'"name": "', b'"name": "\xe9\xff\xfe'))
    run(cls, "profile name not UTF-8 --json", ["xgraph", "--profile", f, "--json"], paths=[d])
    f = write(d + b"/col.csv", STREAM.replace(b"read_gbs", b"read_gb\xe9"))
    run(cls, "column name Latin-1", ["fit-trace", "--trace", f, "--x", "warps_per_sm", "--y", b"read_gb\xe9", "--json"],
        paths=[d])
    run(cls, "column name Latin-1 missing", ["fit-trace", "--trace", f, "--x", "warps_per_sm", "--y", b"x\xe9",
        "--json"], expect=(2,), paths=[d])


def values_class():
    cls = 7
    long = "9" * 100000
    nl = "1\n2\n3"
    for v, label in ((long, "100k digits"), (nl, "line breaks"), ("1\r\x1b[2J", "escape"), ("x" * 100000, "100k letters")):
        run(cls, "--set Z=%s" % label, ["xgraph", "--set", "Z=" + v], expect=(2,))
        run(cls, "--set %s=1" % label, ["xgraph", "--set", v + "=1"], expect=(2,))
        run(cls, "--profile %s" % label, ["xgraph", "--profile", v], expect=(2,), max_message=600)
        run(cls, "--x %s" % label, ["fit-trace", "--trace", os.path.join(SRC, "tests/data/h100_sxm/stream.csv"),
            "--x", v, "--y", "read_gbs"], expect=(2,))
        run(cls, "--cc %s" % label, ["occupancy", "--cc", v, "--threads", "256", "--regs", "32", "--smem", "0"],
            expect=(2,))
        run(cls, "--br %s" % label, ["zigzag", "--sms", "15", "--ba", "1", "--br", v], expect=(2,))
        run(cls, "--view %s" % label, ["render", "--session", os.path.join(SRC, "docs/samples/v100-measured.crossroof"),
            "--view", v, "--out", path("v.svg")], expect=(2,))
        run(cls, "--weight %s" % label, ["calibrate", "--family", path("family.csv"), "--profile", "h100-sxm",
            "--weight", v], expect=(2,))
        run(cls, "--point %s" % label, ["mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", "0.5",
            "--point", v], expect=(2,))
        run(cls, "--measured %s" % label, ["skeleton", "--file", os.path.join(SRC, "docs/samples/skeletons/haccmk.skel"),
            "--measured", v], expect=(2,))
        run(cls, "--strategy %s" % label, ["markov", "--profile", "clovertown-x5365", "--strategy", v], expect=(2,))
        run(cls, "unknown option %s" % label, ["xgraph", "--" + v], expect=(2,))
        run(cls, "unknown command %s" % label, [v], expect=(2,))
    # In files: a long or multi-line value in a field.
    write("family.csv", FAMILY)
    for v, label in (("9" * 100000, "100k digits"), ('"1\n2\n3"', "line breaks in quotes"), ("\x1b[31mred", "escape")):
        lines = FAMILY.decode().splitlines()
        fs = lines[1].split(",")
        fs[8] = v
        f = write("values/family-%s.csv" % label.replace(" ", "-"), "\n".join([lines[0], ",".join(fs)] + lines[2:]) + "\n")
        run(cls, "family gbs %s" % label, ["calibrate", "--family", f, "--profile", "h100-sxm"], expect=(2,))
        prof = json.loads(PROFILE)
        prof["parameters"]["Z"] = v
        f = write("values/profile-%s.json" % label.replace(" ", "-"), json.dumps(prof))
        run(cls, "profile Z string %s" % label, ["xgraph", "--profile", f], expect=(2,))
        prof = json.loads(PROFILE)
        prof["kind"] = v
        f = write("values/profile-kind-%s.json" % label.replace(" ", "-"), json.dumps(prof))
        run(cls, "profile kind %s" % label, ["xgraph", "--profile", f], expect=(2,))
        f = write("values/skel-%s.skel" % label.replace(" ", "-"), SKELETON.decode().replace("ld xx1", "ld " + v))
        run(cls, "skeleton operand %s" % label, ["skeleton", "--file", f])
        f = write("values/perf-%s.tsv" % label.replace(" ", "-"), PERF.decode().replace("imc/event=0x04,umask=0x0f/", v, 1))
        run(cls, "perf event %s" % label, ["bandwidth-curve", "--trace", f, "--format", "perf-stat", "--column",
            "imc-bytes", "--limit", "1e8"])
        c = {"instructions": 50, "suspend": [{"name": v, "multi": 1, "single": 2}]}
        f = write("values/counters-%s.json" % label.replace(" ", "-"), json.dumps(c))
        run(cls, "counters event name %s" % label, ["counters", "--file", f, "--json"])


def out_class():
    cls = 9
    d = path("out")
    os.makedirs(d)
    write("family.csv", FAMILY)
    sess = os.path.join(SRC, "docs/samples/v100-measured.crossroof")
    makers = {
        "calibrate": lambda o: ["calibrate", "--family", path("family.csv"), "--profile", "h100-sxm", "--out", o],
        "render": lambda o: ["render", "--session", sess, "--view", "xgraph", "--out", o],
    }
    victim = write("out/victim.txt", "keep me\n").decode()
    for what, argv in makers.items():
        ext = ".json" if what == "calibrate" else ".svg"
        t = d + "/" + what
        os.makedirs(t)
        os.symlink(victim, t + "/link" + ext)
        run(cls, "%s --out a symlink" % what, argv(t + "/link" + ext))
        os.mkfifo(t + "/fifo" + ext)
        run(cls, "%s --out a FIFO" % what, argv(t + "/fifo" + ext), expect=(2,))
        os.makedirs(t + "/dir" + ext)
        run(cls, "%s --out a folder" % what, argv(t + "/dir" + ext), expect=(2,))
        try:
            os.mknod(t + "/dev" + ext, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
            run(cls, "%s --out a device node" % what, argv(t + "/dev" + ext), expect=(2,))
            if not stat.S_ISCHR(os.stat(t + "/dev" + ext).st_mode):
                fail_line(cls, "%s --out replaced a device node" % what)
        except OSError:
            pass
        for tmp in (".part", ".tmp", "~", ".new"):
            os.symlink(victim, t + "/x" + ext + tmp)
        run(cls, "%s --out beside planted temp links" % what, argv(t + "/x" + ext))
        run(cls, "%s --out in a missing folder" % what, argv(t + "/missing/x" + ext), expect=(2,))
        run(cls, "%s --out in a file as folder" % what, argv(victim + "/x" + ext), expect=(2,))
        os.makedirs(t + "/ro")
        os.chmod(t + "/ro", 0o500)
        if os.geteuid() != 0:
            run(cls, "%s --out in a read-only folder" % what, argv(t + "/ro/x" + ext), expect=(2,))
        run(cls, "%s --out empty" % what, argv(""), expect=(2,))
        run(cls, "%s --out with a line break" % what, argv(t + "/a\nb" + ext))
        run(cls, "%s --out a 300-byte name" % what, argv(t + "/" + "n" * 300 + ext), expect=(2,))
        run(cls, "%s --out - (standard output)" % what, argv("-"))
    with open(victim) as f:
        if f.read() != "keep me\n":
            fail_line(cls, "a file behind a link was overwritten")
    for name in os.listdir(d):
        pass
    leftovers = [os.path.join(r, n) for r, _, ns in os.walk(d) for n in ns
                 if re.search(r"\.(part|tmp)[^/]*$", n) and not os.path.islink(os.path.join(r, n))]
    if leftovers:
        fail_line(cls, "temporary files left behind: %s" % leftovers[:3])
    # A full disk: a 64 KiB tmpfs.
    full = path("full")
    os.makedirs(full)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", full], capture_output=True).returncode == 0:
        try:
            write((full + "/filler").encode(), b"\0" * (60 << 10))
            for what, argv in makers.items():
                ext = ".json" if what == "calibrate" else ".svg"
                r = run(11, "%s --out on a full disk" % what, argv(full + "/x" + ext), expect=(2,), must="space")
                left = os.listdir(full)
                if left != ["filler"]:
                    fail_line(11, "%s on a full disk left %s" % (what, left))
            os.unlink(full + "/filler")
            write((full + "/filler").encode(), b"\0" * (64 << 10))
            r = subprocess.run("%s xgraph --json > %s/o.json" % (CLI, full), shell=True, capture_output=True, env=ENV)
            results[11][0] += 1
            if r.returncode != 2 or b"space" not in r.stderr:
                fail_line(11, "xgraph --json > full disk: exit %d %r" % (r.returncode, r.stderr[:200]), count=False)
        finally:
            subprocess.run(["umount", full])
    else:
        print("(no tmpfs: the full-disk cases are skipped)")


def fail_line(cls, text, count=True):
    if count:
        results[cls][0] += 1
    results[cls][1] += 1
    line = "FAIL [%d] %s" % (cls, text)
    failures.append(line)
    print(line)


def links_class():
    cls = 3
    d = path("links")
    os.makedirs(d)
    rows = "warps_per_sm,read_gbs\n" + "".join("%d,%d\n" % (i % 64 + 1, 100 + i % 7) for i in range(400000))
    table = write("links/table.csv", rows)
    s = json.loads(SESSION)
    base = None
    for t in s.get("traces", []):
        base = t
        break
    if base is None:
        print("(no trace in the sample session: link cases skipped)")
        return
    traces = []
    for i in range(500):
        t = {"id": "t%d" % i, "name": "link %d" % i, "kind": "bandwidth-vs-warps", "link": table.decode(),
             "origin": {"format": "table", "index": 0,
                        "mapping": {"kind": "bandwidth-vs-warps", "x": "warps_per_sm", "y": "read_gbs"}}}
        traces.append(t)
    s2 = dict(s)
    s2["traces"] = traces
    f = write("links/500-links.crossroof", json.dumps(s2))
    run(cls, "500 links to one 4 MB table", ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")])
    for target, label in (("/nonexistent/t.csv", "missing"), (d, "a folder"), ("", "empty"),
                          ("relative/../../t.csv", "relative escape"), ("x" * 5000, "5000-char"),
                          (W.decode() + "/links/loop.csv", "link loop")):
        if label == "link loop":
            os.symlink("loop.csv", d + "/loop.csv")
        s3 = dict(s)
        s3["traces"] = [dict(traces[0], link=target)]
        f = write("links/link-%s.crossroof" % label.replace(" ", "-"), json.dumps(s3))
        # The file's own message names the path whole, as every message names its file.
        run(cls, "session link %s" % label, ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")],
            paths=[target, os.path.join(d, target)])
    # A link chain: a session linking a table which is a symlink to a FIFO.
    os.mkfifo(d + "/fifo.csv")
    os.symlink(d + "/fifo.csv", d + "/to-fifo.csv")
    s3 = dict(s)
    s3["traces"] = [dict(traces[0], link=d + "/to-fifo.csv")]
    f = write("links/link-symlink-fifo.crossroof", json.dumps(s3))
    run(cls, "session link via symlink to FIFO", ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")])
    # Link to a session itself, and to the 1e308 table.
    s3["traces"] = [dict(traces[0], link=f.decode())]
    f2 = write("links/link-self.crossroof", json.dumps(s3))
    s3["traces"] = [dict(traces[0], link=f2.decode())]
    write("links/link-self.crossroof", json.dumps(s3))
    run(cls, "session linking itself", ["render", "--session", f2, "--view", "xgraph", "--out", path("l.svg")])
    t = write("links/huge.csv", "warps_per_sm,read_gbs\n1,1e308\n2,1e308\n3,1e308\n")
    s3["traces"] = [dict(traces[0], link=t.decode())]
    f = write("links/link-1e308.crossroof", json.dumps(s3))
    run(cls, "session linking a table of 1e308", ["render", "--session", f, "--view", "bandwidth", "--out", path("l.svg")])
    run(cls, "session linking a table of 1e308 (xgraph)", ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")])


def messages_class():
    cls = 8
    write("family.csv", FAMILY)
    # Damage late in a long file must be named by its line.
    lines = FAMILY.decode().splitlines()
    body = lines[1:] * 300
    body[-1] = body[-1].rsplit(",", 2)[0] + ",x,1"
    f = write("msg/family-late.csv", "\n".join([lines[0]] + body) + "\n")
    run(cls, "family bad value on the last line", ["calibrate", "--family", f, "--profile", "h100-sxm"], expect=(2,),
        must=r"family-late.csv:%d" % (len(body) + 1))
    f = write("msg/stream-dup.csv", STREAM.decode() + STREAM.decode().splitlines()[0] + "\n")
    run(cls, "stream header again at the end", ["calibrate", "--family", path("family.csv"), "--stream", f,
        "--profile", "h100-sxm"], expect=(2,), must=r"stream-dup.csv:\d+")
    for key in ("sms", "clock_khz", "mem_clock_khz", "cc"):
        d = path("msg/probe-missing-" + key)
        os.makedirs(d)
        for n, t in (("stream.csv", STREAM), ("latency.csv", LATENCY), ("family.csv", FAMILY)):
            write((d + "/" + n).encode(), t)
        write((d + "/device.csv").encode(), "\n".join(l for l in DEVICE.decode().splitlines()
                                                    if not l.startswith(key + ",")) + "\n")
        run(cls, "probe device.csv without %s" % key, ["calibrate", "--probe", d], must="device.csv")
    f = write("msg/session-bad-trace.crossroof", SESSION.decode().replace('"kind": "', '"kind": "zz', 1))
    run(cls, "session with a bad kind", ["render", "--session", f, "--view", "xgraph", "--out", path("m.svg")],
        expect=(2,), must="field")


def large_class():
    cls = 2
    d = path("large")
    os.makedirs(d)
    subprocess.run(["bash", os.path.join(SRC, "scripts/scale_inputs.sh"), d, "1000000", "10"], check=True,
                   capture_output=True)
    subprocess.run(["bash", os.path.join(SRC, "scripts/large_inputs.sh"), d], check=True, capture_output=True)
    run(cls, "calibrate on a 1M-row family", ["calibrate", "--family", d + "/family_1000000.csv", "--profile",
        "h100-sxm"], large=True)
    for fmt in ("text", "csv", "json"):
        run(cls, "kernels --format %s on 1M kernels" % fmt, ["kernels", "--trace", d + "/ncu_1m.csv", "--profile",
            "h100-sxm", "--format", fmt], large=True)
    run(cls, "extrapolate on 1M training rows", ["extrapolate", "--train", d + "/train_1m.csv", "--target-size",
        "160"], large=True)
    run(cls, "fit-trace --model locality on 1M points", ["fit-trace", "--trace", d + "/trace_1m.csv", "--x",
        "warps_per_sm", "--y", "request_gbs", "--model", "locality", "--profile", "h100-sxm"], large=True)
    run(cls, "bandwidth-curve on 1 MiB of perf stat events", ["bandwidth-curve", "--trace", d + "/perf_1mb.txt",
        "--column", "ev5", "--limit", "100"], large=True)
    with open(d + "/skel-5000.skel", "w") as f:
        f.write("def m ()\n{\n    :n = 100\n    for i = 0:n\n    {\n")
        for i in range(5000):
            f.write("        fma a%d: a%d, a%d\n" % (i, max(0, i - 1), max(0, i - 2)) if i % 3 else "        ld a%d\n" % i)
        f.write("    }\n}\n")
    run(cls, "skeleton of 5000 statements", ["skeleton", "--file", d + "/skel-5000.skel", "--json"], large=True)
    # A 16.7M-interval trace linked from a session.
    with open(d + "/bytes.csv", "w") as f:
        f.write("bytes\n")
        chunk = "".join("%d\n" % (1 + (i * 7919) % 9) for i in range(1 << 16))  # 32 MiB, under the 64 MiB limit
        for _ in range(256):
            f.write(chunk)
    s = json.loads(read("docs/samples/h100-thrashing.crossroof"))
    bw = {"id": "big", "name": "16.7M intervals", "kind": "bytes-per-interval", "link": d + "/bytes.csv",
          "origin": {"format": "table", "index": 0, "mapping": {"kind": "bytes-per-interval", "y": "bytes"}}}
    s.pop("measured_curves", None)  # the sample's curves name traces of their own kind
    s["traces"] = s.get("traces", []) + [bw]
    f = write("large/big.crossroof", json.dumps(s))
    run(cls, "render bandwidth of a 16.7M-interval trace", ["--session", f, "--view", "bandwidth", "--out",
        d + "/big.svg"], exe=RENDER, large=True)
    if os.path.exists(d + "/big.svg"):
        print("     SVG: %d KB" % (os.path.getsize(d + "/big.svg") >> 10))


STEPS = [(1, user_profile_class), (4, special_files_class), (5, numeric_class), (6, latin1_class),
         (7, values_class), (8, messages_class), (9, out_class), (3, links_class), (2, large_class)]
for cls, step in STEPS:
    if ONLY and str(cls) != ONLY and not (ONLY in ("10", "11") and cls in (6, 9)):
        continue
    t0 = time.time()
    step()
    print("-- class %d done in %.0f s" % (cls, time.time() - t0), flush=True)

print()
print("| class | cases | failures |")
print("|---|---|---|")
for c, name in CLASSES.items():
    print("| %d. %s | %d | %d |" % (c, name, results[c][0], results[c][1]))
print("hostile_review: %d cases, %d failures" % (sum(r[0] for r in results.values()), len(failures)))
sys.exit(1 if failures else 0)
PY
