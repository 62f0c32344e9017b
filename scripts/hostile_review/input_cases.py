# SPDX-License-Identifier: GPL-3.0-or-later
"""Cases on what the programs read: numbers at a double's edges, user profiles, special files, Latin-1 paths."""
from common import *  # noqa: F401,F403 (the set-up, run() and the inputs)


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
